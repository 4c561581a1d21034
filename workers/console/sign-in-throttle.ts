import { DurableObject } from "cloudflare:workers";
import type { Env } from "../platform/env";

/**
 * Console sign-in throttle (docs/console.md, "Sign-in throttling"). One object per key: `address:<sha256>`
 * (a client address) or `email:<sha256>` (a person, known or not). The rule slows the address that guesses,
 * never the person guessed at:
 * - an address gets ADDRESS_FREE_FAILURES failures, then waits before each next attempt, twice as long per
 *   failure, at most ADDRESS_MAX_DELAY_MS (failures are remembered ADDRESS_WINDOW_MS);
 * - an email with EMAIL_MAX_FAILURES failures in EMAIL_WINDOW_MS refuses the addresses those failures came
 *   from, and only them: the right password from an address that has not been failing still gets in.
 * Every attempt is logged before the password is checked (so concurrent guesses cannot slip past the count)
 * and a successful one is taken back. Calls are synchronous over the object's SQLite storage.
 */
export const ADDRESS_FREE_FAILURES = 5;
export const ADDRESS_BASE_DELAY_MS = 1000;
export const ADDRESS_MAX_DELAY_MS = 15 * 60 * 1000;
export const ADDRESS_WINDOW_MS = 24 * 60 * 60 * 1000;
export const EMAIL_WINDOW_MS = 15 * 60 * 1000;
export const EMAIL_MAX_FAILURES = 10;

export type SignInAttempt = { ok: true; attemptId: string } | { ok: false; retryAfterSeconds: number };

/** How long an address waits after its latest failure, given how many it has: 0, then 1 s, 2 s, 4 s … 15 min. */
export function addressDelayMs(failures: number): number {
  if (failures < ADDRESS_FREE_FAILURES) return 0;
  return Math.min(ADDRESS_MAX_DELAY_MS, ADDRESS_BASE_DELAY_MS * 2 ** (failures - ADDRESS_FREE_FAILURES));
}

const refusal = (freeAt: number, now: number): SignInAttempt => ({
  ok: false,
  retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)),
});

export class SignInThrottle extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // `address`: the hashed client address of a failure (email objects); empty in address objects.
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS sign_in_failures (id TEXT PRIMARY KEY, at INTEGER NOT NULL, address TEXT NOT NULL)",
    );
    this.sql.exec("DROP TABLE IF EXISTS sign_in_attempts"); // the earlier per-victim count
  }

  /** An attempt from this (address) object's client address: refused while its backoff runs. */
  attemptFromAddress(now: number): SignInAttempt {
    this.sql.exec("DELETE FROM sign_in_failures WHERE at <= ?", now - ADDRESS_WINDOW_MS);
    const { n, latest } = this.sql
      .exec<{ n: number; latest: number | null }>("SELECT COUNT(*) AS n, MAX(at) AS latest FROM sign_in_failures")
      .one();
    const freeAt = (latest ?? 0) + addressDelayMs(n);
    if (n > 0 && now < freeAt) return refusal(freeAt, now);
    return this.record(now, "");
  }

  /** An attempt at this (email) object's person from `address` (hashed): refused only for a failing address. */
  attemptForEmail(address: string, now: number): SignInAttempt {
    this.sql.exec("DELETE FROM sign_in_failures WHERE at <= ?", now - EMAIL_WINDOW_MS);
    const { n } = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sign_in_failures").one();
    if (n >= EMAIL_MAX_FAILURES) {
      const { oldest } = this.sql
        .exec<{ oldest: number | null }>("SELECT MIN(at) AS oldest FROM sign_in_failures WHERE address = ?", address)
        .one();
      if (oldest !== null) return refusal(oldest + EMAIL_WINDOW_MS, now);
    }
    return this.record(now, address);
  }

  /** A correct password: the attempt does not count as a failure. */
  forgive(attemptId: string): void {
    this.sql.exec("DELETE FROM sign_in_failures WHERE id = ?", attemptId);
  }

  private record(now: number, address: string): SignInAttempt {
    const attemptId = crypto.randomUUID();
    this.sql.exec("INSERT INTO sign_in_failures (id, at, address) VALUES (?, ?, ?)", attemptId, now, address);
    return { ok: true, attemptId };
  }
}
