import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { unauthorized } from "../http/errors";
import { bearerCredential } from "./credentials";
import { safeEqual } from "../crypto/digest";

/**
 * `Authorization: Bearer <ADMIN_TOKEN>` on every /v1/admin route, compared byte-exact in constant time (only
 * SP/HTAB around it are dropped); anything else is the same 401 in the envelope.
 */
export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  // Compare even when the header is malformed, so every refusal costs the same work.
  const given = bearerCredential(c.req.header("Authorization"));
  const equal = await safeEqual(given ?? "", expected ?? "");
  // An unset ADMIN_TOKEN must never turn into "any empty bearer works".
  if (!expected || given === undefined || !equal) throw unauthorized();
  await next();
});
