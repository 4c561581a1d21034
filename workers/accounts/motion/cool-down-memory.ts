import { coolDownRefusal } from "./motion-connections";

/**
 * Accounts held off after a flood (motion/pacing.ts FLOOD_COOL_DOWN_MS), as this isolate last heard it: from
 * the session object that closed the flooding connection (the same time it gives the limiter) or from the
 * account's limiter. A flooder reconnecting during its cool-down is then refused right after its token
 * verifies, and its requests for new session tokens right after its key is hashed — before the D1 and R2
 * reads and the limiter call an admission or a key lookup needs: each retry costs a hash or a signature check
 * instead of a D1 read and ~7 round trips. Only a copy of the limiter's decision, never held past the time it
 * gave; at most MAX_ENTRIES accounts and key hashes.
 */
const until = new Map<string, number>();
/** The account of each key hash that minted a session token in this isolate (to find a flooder's key). */
const accountOfKey = new Map<string, string>();
const MAX_ENTRIES = 10_000;

export function rememberCoolDown(accountId: string, coolingDownUntil: number, now: number): void {
  if (until.size >= MAX_ENTRIES) for (const [id, t] of until) if (t <= now) until.delete(id);
  if (until.size < MAX_ENTRIES) until.set(accountId, coolingDownUntil);
}

/** The limiter's refusal again while the account's remembered cool-down holds, else null. */
export function rememberedCoolDown(accountId: string, now: number) {
  const t = until.get(accountId);
  if (t === undefined) return null;
  if (t > now) return coolDownRefusal(t, now);
  until.delete(accountId);
  return null;
}

/** A key hash that minted a token for `accountId`; the oldest is forgotten first when full. */
export function rememberKeyAccount(keyHash: string, accountId: string): void {
  accountOfKey.delete(keyHash);
  if (accountOfKey.size >= MAX_ENTRIES) accountOfKey.delete(accountOfKey.keys().next().value as string);
  accountOfKey.set(keyHash, accountId);
}

/** The cool-down refusal of the account this key last minted for, else null (unknown key: look it up). */
export function rememberedCoolDownOfKey(keyHash: string, now: number) {
  const accountId = accountOfKey.get(keyHash);
  return accountId === undefined ? null : rememberedCoolDown(accountId, now);
}
