import { coolDownRefusal } from "../platform/limiter/motion-connections";

/**
 * Accounts held off after a flood (pacing.ts FLOOD_COOL_DOWN_MS), as this isolate last heard it: from the
 * session object that closed the flooding connection (the same time it gives the limiter) or from the
 * account's limiter. A flooder reconnecting during its cool-down is then refused right after its token
 * verifies, before the D1 and R2 reads and the limiter call an admission needs: each retry costs a signature
 * check instead of ~7 round trips. Only a copy of the limiter's decision, never held past the time it
 * gave; at most MAX_ACCOUNTS entries.
 */
const until = new Map<string, number>();
const MAX_ACCOUNTS = 10_000;

export function rememberCoolDown(accountId: string, coolingDownUntil: number, now: number): void {
  if (until.size >= MAX_ACCOUNTS) for (const [id, t] of until) if (t <= now) until.delete(id);
  if (until.size < MAX_ACCOUNTS) until.set(accountId, coolingDownUntil);
}

/** The limiter's refusal again while the account's remembered cool-down holds, else null. */
export function rememberedCoolDown(accountId: string, now: number) {
  const t = until.get(accountId);
  if (t === undefined) return null;
  if (t > now) return coolDownRefusal(t, now);
  until.delete(accountId);
  return null;
}
