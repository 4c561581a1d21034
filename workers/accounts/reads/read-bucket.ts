import type { AvatarLimits } from "../limits";

export type ReadFamily = "avatar" | "video";
export type ReadLimits = Pick<AvatarLimits, "readsPerSecond" | "readBurst" | "readsPerMinute">;

/** State of one read policy after a decision, for the RateLimit header. */
export interface ReadPolicyState {
  /** Units left right now (after counting this read when it was admitted). */
  remaining: number;
  /** Whole seconds until the policy is back at its full quota. */
  resetSeconds: number;
}

export interface ReadDecision {
  ok: boolean;
  burst: ReadPolicyState;
  minute: ReadPolicyState;
  /** Refused reads: whole seconds (≥ 1) until a read would be admitted. */
  retryAfterSeconds?: number;
}

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

/** Brings a family's state to `now`: refill the bucket, drop reads older than a minute, apply lowered limits. */
function refresh(s: FamilyState, limits: ReadLimits, now: number) {
  const elapsed = Math.max(0, now - s.updatedAt);
  s.tokens = Math.min(limits.readBurst, s.tokens + (elapsed / 1000) * limits.readsPerSecond);
  s.updatedAt = Math.max(s.updatedAt, now);
  while (s.log.length > 0 && s.log[0] <= now - MINUTE_MS) s.log.shift();
  if (s.log.length > limits.readsPerMinute) s.log.splice(0, s.log.length - limits.readsPerMinute);
}

function policies(
  s: FamilyState,
  limits: ReadLimits,
  now: number,
): { burst: ReadPolicyState; minute: ReadPolicyState } {
  const { readsPerSecond: rate, readBurst: burst, readsPerMinute: perMinute } = limits;
  return {
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

const fresh = (limits: ReadLimits, now: number): FamilyState => ({ tokens: limits.readBurst, updatedAt: now, log: [] });

/**
 * One read decision, mutating `states`. Token bucket: capacity readBurst, refilled at readsPerSecond; plus at
 * most readsPerMinute reads in any rolling 60 s. A refused read consumes nothing.
 */
export function admitRead(states: ReadStates, family: ReadFamily, limits: ReadLimits, now: number): ReadDecision {
  const s = (states[family] ??= fresh(limits, now));
  refresh(s, limits, now);
  const ok = s.tokens >= 1 && s.log.length < limits.readsPerMinute;
  if (ok) {
    s.tokens -= 1;
    s.log.push(now);
    return { ok, ...policies(s, limits, now) };
  }
  const rate = limits.readsPerSecond;
  const bucketWait = s.tokens >= 1 ? 0 : rate > 0 ? ((1 - s.tokens) / rate) * 1000 : MINUTE_MS;
  const full = s.log.length >= limits.readsPerMinute;
  const minuteWait = !full
    ? 0
    : limits.readsPerMinute <= 0
      ? MINUTE_MS
      : s.log[s.log.length - limits.readsPerMinute] + MINUTE_MS - now;
  return {
    ok,
    retryAfterSeconds: Math.max(1, Math.ceil(Math.max(bucketWait, minuteWait) / 1000)),
    ...policies(s, limits, now),
  };
}

/** The current figures without counting a read (RateLimit headers on non-read routes). Does not mutate. */
export function peekRead(states: ReadStates, family: ReadFamily, limits: ReadLimits, now: number): ReadDecision {
  const current = states[family];
  const s = current ? { ...current, log: [...current.log] } : fresh(limits, now);
  refresh(s, limits, now);
  return { ok: s.tokens >= 1 && s.log.length < limits.readsPerMinute, ...policies(s, limits, now) };
}
