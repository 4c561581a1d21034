import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { accounts, apps } from "../db/schema";
import type { AppEnv } from "../env";
import { unauthorized } from "../http/errors";
import { credentialField } from "./credentials";
import { safeEqualHex, sha256Hex } from "../crypto/digest";
import { isIssuedUuid } from "../http/uuid";
import { meteredRefusal, refuseMeteredAddress } from "./failure-meter";

/**
 * /v1/open authentication: X-App-ID + X-API-Key must be an existing, unrevoked App whose key hash matches
 * (constant time) and whose owner account is active. Both headers are taken byte-exact (only SP/HTAB
 * around them dropped, see credentials.ts). Every failure is the same 401 "Unauthorized." so a caller never
 * learns which part was wrong; failures are metered per client address (failure-meter.ts).
 */
export const appAuth = createMiddleware<AppEnv>(async (c, next) => {
  refuseMeteredAddress(c);
  const appId = credentialField(c.req.header("X-App-ID"));
  // App IDs as we issue them, byte-exact: no case folding, no trimming.
  if (!appId || !isIssuedUuid(appId)) throw await refused(c);
  // Hash before looking anything up so a missing App costs the same work as a wrong key.
  const keyHash = await apiKeyHash(c);
  if (!keyHash) throw await refused(c);
  const row = await drizzle(c.env.DB)
    .select({ app: apps, account: accounts })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(and(eq(apps.id, appId), isNull(apps.revokedAt)))
    .get();
  const ok = safeEqualHex(keyHash, row?.app.keyHash ?? "0".repeat(64));
  if (!row || !ok || !row.account.active) throw await refused(c);
  c.set("caller", { appId: row.app.id, account: row.account });
  await next();
});

/** The 401 every failure gets, counted by the edge meter (429 once the address is past it). */
const refused = (c: Context<AppEnv>) => meteredRefusal(c, unauthorized());

/** SHA-256 of the request's X-API-Key (hashed once per request, by whichever middleware asks first), or undefined. */
export async function apiKeyHash(c: Context<AppEnv>): Promise<string | undefined> {
  const cached = c.get("apiKeyHash");
  if (cached) return cached;
  const apiKey = credentialField(c.req.header("X-API-Key"));
  if (!apiKey) return undefined;
  const keyHash = await sha256Hex(apiKey);
  c.set("apiKeyHash", keyHash);
  return keyHash;
}

/** Console authentication (session tokens): X-API-Key alone identifies the App by its key hash. */
export const apiKeyAuth = createMiddleware<AppEnv>(async (c, next) => {
  refuseMeteredAddress(c);
  const keyHash = await apiKeyHash(c);
  if (!keyHash) throw await refused(c);
  const row = await drizzle(c.env.DB)
    .select({ app: apps, account: accounts })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(and(eq(apps.keyHash, keyHash), isNull(apps.revokedAt)))
    .get();
  if (!row?.account.active) throw await refused(c);
  c.set("caller", { appId: row.app.id, account: row.account });
  await next();
});
