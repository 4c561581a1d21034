import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { createMiddleware } from "hono/factory";
import { accounts, apps } from "../db/schema";
import type { AppEnv } from "../env";
import { unauthorized } from "../http/errors";
import { safeEqualHex, sha256Hex, UUID_RE } from "./crypto";

/**
 * /v1/open authentication: X-App-ID + X-API-Key must be an existing, unrevoked App whose key hash matches
 * (constant time) and whose owner account is active. Every failure is the same 401 "Unauthorized." so a
 * caller never learns which part was wrong.
 */
export const appAuth = createMiddleware<AppEnv>(async (c, next) => {
  const appId = c.req.header("X-App-ID")?.trim();
  const apiKey = c.req.header("X-API-Key")?.trim();
  if (!appId || !apiKey || !UUID_RE.test(appId)) throw unauthorized();
  // Hash before looking anything up so a missing App costs the same work as a wrong key.
  const keyHash = await sha256Hex(apiKey);
  const row = await drizzle(c.env.DB)
    .select({ app: apps, account: accounts })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(and(eq(apps.id, appId.toLowerCase()), isNull(apps.revokedAt)))
    .get();
  const ok = safeEqualHex(keyHash, row?.app.keyHash ?? "0".repeat(64));
  if (!row || !ok || !row.account.active) throw unauthorized();
  c.set("caller", { appId: row.app.id, account: row.account });
  await next();
});

/** Console authentication (session tokens): X-API-Key alone identifies the App by its key hash. */
export const apiKeyAuth = createMiddleware<AppEnv>(async (c, next) => {
  const apiKey = c.req.header("X-API-Key")?.trim();
  if (!apiKey) throw unauthorized();
  const keyHash = await sha256Hex(apiKey);
  const row = await drizzle(c.env.DB)
    .select({ app: apps, account: accounts })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(and(eq(apps.keyHash, keyHash), isNull(apps.revokedAt)))
    .get();
  if (!row || !row.account.active) throw unauthorized();
  c.set("caller", { appId: row.app.id, account: row.account });
  await next();
});
