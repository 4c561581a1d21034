/**
 * Console sign-in throttle (docs/console.md): at most 10 failed sign-ins per 15 minutes per email and per
 * client address. Runs inside an AccountLimiter instance named for the key (`sign-in:email:<sha256>` or
 * `sign-in:address:<sha256>`), not an account's instance. Every attempt is logged before the password is
 * checked (so concurrent guesses cannot slip past the count) and a successful one is taken back.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES = 10;

export type SignInAttempt = { ok: true; attemptId: string } | { ok: false; retryAfterSeconds: number };

function ensureTable(sql: SqlStorage) {
  sql.exec("CREATE TABLE IF NOT EXISTS sign_in_attempts (id TEXT PRIMARY KEY, at INTEGER NOT NULL)");
}

export function recordSignInAttempt(sql: SqlStorage, now: number): SignInAttempt {
  ensureTable(sql);
  sql.exec("DELETE FROM sign_in_attempts WHERE at <= ?", now - SIGN_IN_WINDOW_MS);
  const rows = sql.exec<{ n: number; oldest: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM sign_in_attempts").one();
  if (rows.n >= SIGN_IN_MAX_FAILURES) {
    const freeAt = (rows.oldest ?? now) + SIGN_IN_WINDOW_MS;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
  }
  const attemptId = crypto.randomUUID();
  sql.exec("INSERT INTO sign_in_attempts (id, at) VALUES (?, ?)", attemptId, now);
  return { ok: true, attemptId };
}

/** A correct password: the attempt does not count as a failure. */
export function forgiveSignInAttempt(sql: SqlStorage, attemptId: string): void {
  ensureTable(sql);
  sql.exec("DELETE FROM sign_in_attempts WHERE id = ?", attemptId);
}
