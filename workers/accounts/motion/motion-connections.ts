/**
 * Live motion connections of one account (docs/motion.md), inside the account's AccountLimiter: the
 * concurrent-connection limit and single use of session tokens by `jti`. Both live in the object's SQLite
 * storage, so a token stays spent and a slot stays taken across restarts. A slot is freed when its
 * connection closes; one that was never released (an evicted connection object) lapses after the longest
 * session plus a minute.
 */
export interface MotionLimits {
  /** Concurrent connections per account. */
  connections: number;
  /** Longest connection, seconds. */
  sessionSeconds: number;
  /** Longest wait for any client message, seconds. */
  idleSeconds: number;
}

export const DEFAULT_MOTION_LIMITS: MotionLimits = { connections: 10, sessionSeconds: 3600, idleSeconds: 60 };

export type MotionAdmission =
  | { ok: true; limits: MotionLimits }
  | {
      ok: false;
      code: "unauthorized" | "rate_limit_exceeded";
      message: string;
      retryAfterSeconds?: number;
      /** Set when the refusal is the flood cool-down: until when it holds (ms). */
      coolingDownUntil?: number;
    };

function ensureTables(sql: SqlStorage) {
  sql.exec(`
    CREATE TABLE IF NOT EXISTS motion_tokens (jti TEXT PRIMARY KEY, exp INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS motion_connections (id TEXT PRIMARY KEY, since INTEGER NOT NULL, lapses_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS motion_settings (id INTEGER PRIMARY KEY CHECK (id = 1), limits TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS motion_flood_cooldown (id INTEGER PRIMARY KEY CHECK (id = 1), until INTEGER NOT NULL, length INTEGER NOT NULL);
  `);
}

export function motionLimits(sql: SqlStorage): MotionLimits {
  ensureTables(sql);
  const row = sql.exec<{ limits: string }>("SELECT limits FROM motion_settings WHERE id = 1").toArray()[0];
  return row
    ? { ...DEFAULT_MOTION_LIMITS, ...(JSON.parse(row.limits) as Partial<MotionLimits>) }
    : { ...DEFAULT_MOTION_LIMITS };
}

/** Operator setting (and tests): any subset; the rest keeps its default. */
export function setMotionLimits(sql: SqlStorage, limits: Partial<MotionLimits>): MotionLimits {
  ensureTables(sql);
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in DEFAULT_MOTION_LIMITS) || !Number.isInteger(v) || (v as number) < 0)
      throw new Error(`motion limit ${k} must be a whole number ≥ 0`);
  }
  sql.exec("INSERT OR REPLACE INTO motion_settings (id, limits) VALUES (1, ?)", JSON.stringify(limits));
  return motionLimits(sql);
}

/**
 * Spends the token and takes a connection slot, or refuses: a token expired (`exp` ≤ now) or already used →
 * 401, the account at its limit → 429 (the token is then not spent: the caller may retry with it while it is
 * valid). The expiry is checked here, in the same call that forgets expired `jti`s: checked only by the caller
 * earlier, a token reused at its expiry instant found its `jti` already forgotten and was admitted twice.
 */
export function admitMotionConnection(
  sql: SqlStorage,
  input: { connectionId: string; jti: string; exp: number },
  now: number,
): MotionAdmission {
  ensureTables(sql);
  if (input.exp * 1000 <= now) {
    return {
      ok: false,
      code: "unauthorized",
      message: "The session token has expired: request a new one for each new connection.",
    };
  }
  sql.exec("DELETE FROM motion_tokens WHERE exp * 1000 <= ?", now); // only tokens that can no longer pass the check above
  sql.exec("DELETE FROM motion_connections WHERE lapses_at <= ?", now);
  if (sql.exec("SELECT 1 FROM motion_tokens WHERE jti = ?", input.jti).toArray().length > 0) {
    return {
      ok: false,
      code: "unauthorized",
      message: "The session token was already used for a connection: request one token per connection.",
    };
  }
  // A connection of this account was closed for flooding (audio far ahead of real time): it waits a while.
  const until = lastCoolDown(sql)?.until ?? 0;
  if (until > now) return coolDownRefusal(until, now);
  const limits = motionLimits(sql);
  const open = Number(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM motion_connections").one().n);
  if (open >= limits.connections) {
    return {
      ok: false,
      code: "rate_limit_exceeded",
      message: `Too many live motion connections: the account's limit is ${limits.connections} at a time. Close one, then retry.`,
      retryAfterSeconds: 5,
    };
  }
  sql.exec("INSERT INTO motion_tokens (jti, exp) VALUES (?, ?)", input.jti, input.exp);
  sql.exec(
    "INSERT INTO motion_connections (id, since, lapses_at) VALUES (?, ?, ?)",
    input.connectionId,
    now,
    now + (limits.sessionSeconds + 60) * 1000,
  );
  return { ok: true, limits };
}

/** The refusal of a new connection while the account's flood cool-down holds (until `until`, ms). */
export function coolDownRefusal(until: number, now: number) {
  const wait = Math.max(1, Math.ceil((until - now) / 1000));
  return {
    ok: false as const,
    code: "rate_limit_exceeded" as const,
    message: `A live connection of this account sent audio faster than real time: its new connections and session tokens wait ${wait} seconds.`,
    retryAfterSeconds: wait,
    coolingDownUntil: until,
  };
}

/** A flooding account's next cool-down doubles when it floods again within this long of the last one's end. */
export const FLOOD_REPEAT_WINDOW_MS = 10 * 60_000;
/** The longest cool-down of an account that keeps flooding. */
export const FLOOD_COOL_DOWN_MAX_MS = 10 * 60_000;

const lastCoolDown = (sql: SqlStorage) =>
  sql
    .exec<{ until: number; length: number }>("SELECT until, length FROM motion_flood_cooldown WHERE id = 1")
    .toArray()[0];

/**
 * A closed connection frees its slot. `coolDownUntil` (closed for flooding) holds the account's new
 * connections off until then — or twice as long as its last cool-down, up to FLOOD_COOL_DOWN_MAX_MS, when it
 * flooded again soon after that one ended: a flooder retrying forever gets fewer connections over time.
 * Returns when the cool-down in effect ends.
 */
export function endMotionConnection(
  sql: SqlStorage,
  connectionId: string,
  coolDownUntil?: number,
  now = Date.now(),
): number | undefined {
  ensureTables(sql);
  sql.exec("DELETE FROM motion_connections WHERE id = ?", connectionId);
  if (!coolDownUntil) return undefined;
  const last = lastCoolDown(sql);
  const base = Math.max(0, coolDownUntil - now);
  const length =
    last && now < last.until + FLOOD_REPEAT_WINDOW_MS
      ? Math.min(Math.max(last.length * 2, base), FLOOD_COOL_DOWN_MAX_MS)
      : base;
  const until = Math.max(last?.until ?? 0, now + length);
  sql.exec("INSERT OR REPLACE INTO motion_flood_cooldown (id, until, length) VALUES (1, ?, ?)", until, length);
  return until;
}

export function openMotionConnections(sql: SqlStorage): number {
  ensureTables(sql);
  return Number(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM motion_connections").one().n);
}
