import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { unauthorized } from "../http/errors";
import { bearerCredential } from "./credentials";
import { safeEqual } from "../crypto/digest";
import { ACCESS_JWT_HEADER, accessIdentity, accessRequired } from "./access-jwt";
import { meteredRefusal, refuseMeteredAddress } from "./failure-meter";

/**
 * Does the request carry `Authorization: Bearer <ADMIN_TOKEN>`? Compared byte-exact in constant time (only
 * SP/HTAB around it are dropped); an unset ADMIN_TOKEN never turns into "any empty bearer works".
 */
export async function hasAdminToken(c: Context<AppEnv>): Promise<boolean> {
  const expected = c.env.ADMIN_TOKEN;
  // Compare even when the header is malformed, so every refusal costs the same work.
  const given = bearerCredential(c.req.header("Authorization"));
  const equal = await safeEqual(given ?? "", expected ?? "");
  return Boolean(expected) && given !== undefined && equal;
}

/**
 * Every /v1/admin route: the admin token and, when the deployment puts the admin API behind Cloudflare Access
 * (ADMIN_ACCESS_AUD), a valid Access JWT; else the same 401 in the envelope. Sets `adminActor` for the audit
 * trail: the Access identity, else "admin token".
 */
export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  refuseMeteredAddress(c);
  const tokenOk = await hasAdminToken(c);
  const person = accessRequired(c.env) ? await accessIdentity(c.env, c.req.header(ACCESS_JWT_HEADER)) : "admin token";
  if (!tokenOk || !person) throw await meteredRefusal(c, unauthorized());
  c.set("adminActor", person);
  await next();
});
