import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { unauthorized } from "../http/errors";
import { safeEqual } from "./crypto";

/** `Authorization: Bearer <ADMIN_TOKEN>` on every /v1/admin route; anything else is 401 in the envelope. */
export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  // An unset ADMIN_TOKEN must never turn into "any empty bearer works".
  if (!expected || !match || !(await safeEqual(match[1], expected))) throw unauthorized();
  await next();
});
