import { createMiddleware } from "hono/factory";
import { apiKeyHash } from "../../platform/auth/app-auth";
import { rememberKeyAccount, rememberedCoolDownOfKey, admissionError } from "../../accounts/public";
import type { AppEnv } from "../../platform/env";

/**
 * Runs before the key lookup: a key whose account is in its live-audio flood cool-down (as this isolate
 * heard it) gets the same 429 as the account's new connections, without the D1 read a key lookup costs — a
 * flooder asks for a token before every reconnect. After a token is issued, the key's account is remembered.
 * A revoked key of such an account may get this 429 instead of 401 until the cool-down ends (seconds).
 */
export const floodCoolDown = createMiddleware<AppEnv>(async (c, next) => {
  const keyHash = await apiKeyHash(c);
  const cooling = keyHash ? rememberedCoolDownOfKey(keyHash, Date.now()) : null;
  if (cooling) throw admissionError(cooling);
  await next();
  if (keyHash && c.res.status === 200) rememberKeyAccount(keyHash, c.get("caller").account.id);
});
