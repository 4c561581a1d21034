import type { ReadDecision, ReadFamily, ReadLimits } from "./types";

const MINUTE_MS = 60_000;

interface FamilyState {
  /** Tokens in the bucket at `updatedAt` (fractional while refilling). */
  tokens: number;
  updatedAt: number;
  /** Admission times of the reads of the last minute, oldest first (at most readsPerMinute entries). */
  log: number[];
}

export type ReadStates = Partial<Record<ReadFamily, FamilyState>>;

export function loadReadState(json: string | undefined): ReadStates {
  try {
    return json ? (JSON.parse(json) as ReadStates) : {};
  } catch {
    return {};
  }
}

/**
 * One read decision, mutating `states`. Token bucket: capacity readBurst, refilled at readsPerSecond; plus at
 * most readsPerMinute reads in any rolling 60 s. A refused read consumes nothing.
 */
export function admitRead(states: ReadStates, family: ReadFamily, limits: ReadLimits, now: number): ReadDecision {
  const { readsPerSecond: rate, readBurst: burst, readsPerMinute: perMinute } = limits;
  const s = (states[family] ??= { tokens: burst, updatedAt: now, log: [] });
  const elapsed = Math.max(0, now - s.updatedAt);
  s.tokens = Math.min(burst, s.tokens + (elapsed / 1000) * rate);
  s.updatedAt = Math.max(s.updatedAt, now);
  while (s.log.length > 0 && s.log[0] <= now - MINUTE_MS) s.log.shift();
  // A lowered limit applies at once.
  if (s.log.length > perMinute) s.log.splice(0, s.log.length - perMinute);

  const ok = s.tokens >= 1 && s.log.length < perMinute;
  let retryAfterSeconds: number | undefined;
  if (ok) {
    s.tokens -= 1;
    s.log.push(now);
  } else {
    const bucketWait = s.tokens >= 1 ? 0 : rate > 0 ? Math.ceil(((1 - s.tokens) / rate) * 1000) : MINUTE_MS;
    const minuteWait = s.log.length < perMinute ? 0 : perMinute <= 0 ? MINUTE_MS : s.log[s.log.length - perMinute] + MINUTE_MS - now;
    retryAfterSeconds = Math.max(1, Math.ceil(Math.max(bucketWait, minuteWait) / 1000));
  }
  return {
    ok,
    retryAfterSeconds,
    burst: {
      remaining: Math.floor(s.tokens),
      resetSeconds: s.tokens >= burst ? 0 : rate > 0 ? Math.ceil((burst - s.tokens) / rate) : 60,
    },
    minute: {
      remaining: Math.max(0, perMinute - s.log.length),
      resetSeconds: s.log.length ? Math.max(0, Math.ceil((s.log[s.log.length - 1] + MINUTE_MS - now) / 1000)) : 0,
    },
  };
}
