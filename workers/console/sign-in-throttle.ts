import { DurableObject } from "cloudflare:workers";
import type { Env } from "../platform/env";

/**
 * Console sign-in throttle (docs/console.md): at most 10 failed sign-ins per 15 minutes per email and per
 * client address. One object per key (`email:<sha256>` or `address:<sha256>`). Every attempt is logged
 * before the password is checked (so concurrent guesses cannot slip past the count) and a successful one
 * is taken back. Calls are synchronous over the object's SQLite storage, so they cannot interleave.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES = 10;

export type SignInAttempt = { ok: true; attemptId: string } | { ok: false; retryAfterSeconds: number };

export class SignInThrottle extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS sign_in_attempts (id TEXT PRIMARY KEY, at INTEGER NOT NULL)");
  }

  /** Counts an attempt, or refuses it with the seconds until the oldest counted one leaves the window. */
  attempt(now: number): SignInAttempt {
    this.sql.exec("DELETE FROM sign_in_attempts WHERE at <= ?", now - SIGN_IN_WINDOW_MS);
    const rows = this.sql
      .exec<{ n: number; oldest: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM sign_in_attempts")
      .one();
    if (rows.n >= SIGN_IN_MAX_FAILURES) {
      const freeAt = (rows.oldest ?? now) + SIGN_IN_WINDOW_MS;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    }
    const attemptId = crypto.randomUUID();
    this.sql.exec("INSERT INTO sign_in_attempts (id, at) VALUES (?, ?)", attemptId, now);
    return { ok: true, attemptId };
  }

  /** A correct password: the attempt does not count as a failure. */
  forgive(attemptId: string): void {
    this.sql.exec("DELETE FROM sign_in_attempts WHERE id = ?", attemptId);
  }
}
