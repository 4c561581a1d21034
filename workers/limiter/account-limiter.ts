import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { admitRead, loadReadState, peekRead, type ReadStates } from "./read-bucket";
import { forgiveSignInAttempt, recordSignInAttempt, type SignInAttempt } from "./sign-in-throttle";
import { admitMotionConnection, endMotionConnection, motionLimits, openMotionConnections, setMotionLimits, type MotionAdmission, type MotionLimits } from "./motion-connections";
import type {
  Admission,
  AvatarLimits,
  Balance,
  ReadDecision,
  ReadFamily,
  ReadLimits,
  ReconcileInput,
  ReconcileResult,
  UnitState,
  UnitsUpdate,
  VideoAdmission,
  VideoClaim,
  VideoLimits,
} from "./types";
import { CREATION_WINDOWS, DAY_MS, secondsUntil } from "./windows";

/** Largest balance an operator can set (mirrors the admin schema). */
const MAX_UNITS = 1_000_000_000;
/** Jobs admitted this recently may not be in D1 yet: reconcile leaves them alone. */
export const RECONCILE_GRACE_MS = 120_000;
/** Settled reservations and retry-key claims are kept this long (D1 stays the long-term record). */
const KEEP_SETTLED_MS = 30 * DAY_MS;
/** No concurrency slot frees at a known time; suggest polling at the spec's job polling interval. */
const CONCURRENCY_RETRY_AFTER_S = 10;
const READ_PERSIST_EVERY_MS = 1_000;

const FAMILY_LABEL = { avatar: "Avatar creation", video: "Video creation" } as const;

/**
 * One per account (getByName(accountId)). Every admission decision of the account is made here, one at a
 * time: all methods are synchronous over the object's SQLite storage (no await between read and write),
 * so concurrent RPCs cannot interleave. Creation windows, the concurrency set, the unit balance,
 * reservations and retry-key claims are durable; read buckets live in memory, snapshotted at most once a
 * second (see docs/limits.md).
 */
export class AccountLimiter extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private reads: ReadStates;
  private readsPersistedAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // Synchronous SQL in the constructor: no request is delivered before it returns.
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS creations (family TEXT NOT NULL, job_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (family, job_id));
      CREATE INDEX IF NOT EXISTS creations_family_at ON creations (family, at);
      CREATE TABLE IF NOT EXISTS active_avatar_jobs (job_id TEXT PRIMARY KEY, since INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS reservations (job_id TEXT PRIMARY KEY, state TEXT NOT NULL, reserved_at INTEGER NOT NULL, settled_at INTEGER);
      CREATE INDEX IF NOT EXISTS reservations_state ON reservations (state);
      CREATE TABLE IF NOT EXISTS video_claims (request_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, fingerprint TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.reads = loadReadState(this.meta("reads"));
  }

  // ---- creation admission ------------------------------------------------------------------------------

  /** Windows, then concurrency, then one free unit; all-or-nothing. Idempotent by jobId. */
  admitAvatarCreation(jobId: string, limits: AvatarLimits, now: number): Admission {
    if (this.reservationState(jobId)) return { ok: true };
    this.prune(now);
    const windowRefusal = this.checkWindows("avatar", limits, now);
    if (windowRefusal) return windowRefusal;
    const active = this.count("SELECT COUNT(*) AS n FROM active_avatar_jobs");
    if (active >= limits.concurrent) {
      return {
        ok: false,
        status: 429,
        code: "concurrency_limit_exceeded",
        message: `Too many Avatar creation jobs queued or processing: the limit is ${limits.concurrent}. Retry when one ends.`,
        retryAfterSeconds: CONCURRENCY_RETRY_AFTER_S,
      };
    }
    const { avatarUnits, reservedAvatarUnits } = this.getBalance();
    if (avatarUnits - reservedAvatarUnits < 1) {
      return {
        ok: false,
        status: 402,
        code: "insufficient_avatar_units",
        message: `No Avatar Creations left: balance ${avatarUnits}, of which ${reservedAvatarUnits} reserved by jobs in progress.`,
      };
    }
    this.sql.exec("INSERT INTO creations (family, job_id, at) VALUES ('avatar', ?, ?)", jobId, now);
    this.sql.exec("INSERT OR IGNORE INTO active_avatar_jobs (job_id, since) VALUES (?, ?)", jobId, now);
    this.sql.exec("INSERT INTO reservations (job_id, state, reserved_at) VALUES (?, 'reserved', ?)", jobId, now);
    return { ok: true };
  }

  /**
   * A claimed requestId returns the existing claim without counting anything (the caller compares
   * fingerprints: same → the existing job, different → 409). Otherwise the windows decide and, when admitted,
   * the creation is counted and the claim recorded in the same step. Idempotent by jobId.
   */
  admitVideoCreation(claim: VideoClaim, limits: VideoLimits, now: number): VideoAdmission {
    if (claim.requestId !== null) {
      const existing = this.sql
        .exec<{ job_id: string; fingerprint: string; created_at: number }>(
          "SELECT job_id, fingerprint, created_at FROM video_claims WHERE request_id = ?",
          claim.requestId,
        )
        .toArray()[0];
      if (existing) return { ok: true, existing: { jobId: existing.job_id, fingerprint: existing.fingerprint, createdAt: existing.created_at } };
    }
    if (this.count("SELECT COUNT(*) AS n FROM creations WHERE family = 'video' AND job_id = ?", claim.jobId) > 0) return { ok: true };
    this.prune(now);
    const refusal = this.checkWindows("video", limits, now);
    if (refusal) return refusal;
    this.sql.exec("INSERT INTO creations (family, job_id, at) VALUES ('video', ?, ?)", claim.jobId, now);
    if (claim.requestId !== null) {
      this.sql.exec(
        "INSERT INTO video_claims (request_id, job_id, fingerprint, created_at) VALUES (?, ?, ?, ?)",
        claim.requestId,
        claim.jobId,
        claim.fingerprint,
        claim.createdAt,
      );
    }
    return { ok: true };
  }

  /**
   * POST /avatar-checks costs compute like a creation: it takes a slot of the Avatar per-minute window
   * (checks and creations share it) but counts toward neither the hourly nor the 24-hour quota and
   * reserves nothing. Idempotent by checkId.
   */
  admitAvatarCheck(checkId: string, limits: AvatarLimits, now: number): Admission {
    if (this.count("SELECT COUNT(*) AS n FROM creations WHERE family = 'avatar_check' AND job_id = ?", checkId) > 0) return { ok: true };
    this.prune(now);
    const refusal = this.checkWindows("avatar", { ...limits, perHour: Infinity, perDay: Infinity }, now);
    if (refusal && !refusal.ok) return { ...refusal, message: `${refusal.message} Image checks count toward this limit.` };
    this.sql.exec("INSERT INTO creations (family, job_id, at) VALUES ('avatar_check', ?, ?)", checkId, now);
    return { ok: true };
  }

  // ---- Avatar jobs: concurrency and units -------------------------------------------------------------

  /** Preprocessing completed: the reserved unit is spent. Exactly once; no-op unless still reserved. */
  captureAvatarUnit(jobId: string, now: number = Date.now()): { state: UnitState | null } {
    const state = this.reservationState(jobId);
    if (state === "reserved") this.settle(jobId, "captured", now);
    return { state: this.reservationState(jobId) };
  }

  /** The job ended (any outcome): frees its concurrency slot and releases its unit if still reserved. */
  finishAvatarJob(jobId: string, now: number = Date.now()): { state: UnitState | null } {
    this.sql.exec("DELETE FROM active_avatar_jobs WHERE job_id = ?", jobId);
    if (this.reservationState(jobId) === "reserved") this.settle(jobId, "released", now);
    return { state: this.reservationState(jobId) };
  }

  /** Live motion: spend a session token (single use by jti) and take a connection slot (motion-connections.ts). */
  admitMotionConnection(input: { connectionId: string; jti: string; exp: number }, now: number = Date.now()): MotionAdmission {
    return admitMotionConnection(this.sql, input, now);
  }

  endMotionConnection(connectionId: string): void {
    endMotionConnection(this.sql, connectionId);
  }

  motionStatus(): { limits: MotionLimits; open: number } {
    return { limits: motionLimits(this.sql), open: openMotionConnections(this.sql) };
  }

  setMotionLimits(limits: Partial<MotionLimits>): MotionLimits {
    return setMotionLimits(this.sql, limits);
  }

  /** Console sign-in throttle; only on instances named `sign-in:…` (see sign-in-throttle.ts). */
  signInAttempt(now: number): SignInAttempt {
    return recordSignInAttempt(this.sql, now);
  }

  signInSucceeded(attemptId: string): void {
    forgiveSignInAttempt(this.sql, attemptId);
  }

  getBalance(): Balance {
    return {
      avatarUnits: Number(this.meta("avatar_units") ?? 0),
      reservedAvatarUnits: this.count("SELECT COUNT(*) AS n FROM reservations WHERE state = 'reserved'"),
    };
  }

  /** Operator: set the balance (reserved units included). It may not drop below the units reserved now. */
  setAvatarUnits(total: number): UnitsUpdate {
    const balance = this.getBalance();
    if (!Number.isSafeInteger(total) || total < balance.reservedAvatarUnits || total > MAX_UNITS) {
      return {
        ok: false,
        balance,
        message: `avatarUnits must be an integer from ${balance.reservedAvatarUnits} (units reserved by jobs in progress) to ${MAX_UNITS}`,
      };
    }
    this.setMeta("avatar_units", String(total));
    return { ok: true, balance: this.getBalance() };
  }

  /** Operator: atomic grant (delta > 0) or withdrawal (delta < 0). */
  addAvatarUnits(delta: number): UnitsUpdate {
    const balance = this.getBalance();
    const total = balance.avatarUnits + delta;
    if (!Number.isSafeInteger(delta) || total < balance.reservedAvatarUnits || total > MAX_UNITS) {
      return {
        ok: false,
        balance,
        message: `delta would make the balance ${total}; it must stay from ${balance.reservedAvatarUnits} (units reserved by jobs in progress) to ${MAX_UNITS}`,
      };
    }
    this.setMeta("avatar_units", String(total));
    return { ok: true, balance: this.getBalance() };
  }

  // ---- reconciliation against D1 ------------------------------------------------------------------------

  /** Jobs this object holds as active or with a reserved unit: what reconcileAccount looks up in D1. */
  listOpenJobs(): { active: string[]; reserved: string[] } {
    return {
      active: this.sql.exec<{ job_id: string }>("SELECT job_id FROM active_avatar_jobs").toArray().map((r) => r.job_id),
      reserved: this.sql.exec<{ job_id: string }>("SELECT job_id FROM reservations WHERE state = 'reserved'").toArray().map((r) => r.job_id),
    };
  }

  /**
   * Align with D1 (the record of job outcomes): the concurrency set becomes the active jobs (entries younger
   * than the grace period are kept: their D1 row may not exist yet); reserved units are captured or released
   * as D1 says; a unit still reserved for a job D1 does not list at all (admitted, never stored) is released
   * once older than the grace period.
   */
  reconcile(input: ReconcileInput, now: number = Date.now()): ReconcileResult {
    const active = new Set(input.activeAvatarJobs);
    const captured = new Set(input.capturedJobs);
    const released = new Set(input.releasedJobs);
    const result: ReconcileResult = { deactivated: [], activated: [], captured: [], released: [], balance: this.getBalance() };
    const open = this.listOpenJobs();
    const known = new Set(open.active);
    for (const row of this.sql.exec<{ job_id: string; since: number }>("SELECT job_id, since FROM active_avatar_jobs").toArray()) {
      if (!active.has(row.job_id) && row.since <= now - RECONCILE_GRACE_MS) {
        this.sql.exec("DELETE FROM active_avatar_jobs WHERE job_id = ?", row.job_id);
        result.deactivated.push(row.job_id);
      }
    }
    for (const jobId of active) {
      if (!known.has(jobId)) {
        this.sql.exec("INSERT OR IGNORE INTO active_avatar_jobs (job_id, since) VALUES (?, ?)", jobId, now);
        result.activated.push(jobId);
      }
    }
    for (const row of this.sql
      .exec<{ job_id: string; reserved_at: number }>("SELECT job_id, reserved_at FROM reservations WHERE state = 'reserved'")
      .toArray()) {
      if (captured.has(row.job_id)) {
        this.settle(row.job_id, "captured", now);
        result.captured.push(row.job_id);
      } else if (released.has(row.job_id) || (!active.has(row.job_id) && row.reserved_at <= now - RECONCILE_GRACE_MS)) {
        this.settle(row.job_id, "released", now);
        result.released.push(row.job_id);
      }
    }
    result.balance = this.getBalance();
    return result;
  }

  // ---- reads -------------------------------------------------------------------------------------------

  /** Token bucket (readsPerSecond, burst readBurst) plus a sliding per-minute cap; refused reads cost nothing. */
  admitRead(family: ReadFamily, limits: ReadLimits, now: number = Date.now()): ReadDecision {
    const decision = admitRead(this.reads, family, limits, now);
    if (Math.abs(now - this.readsPersistedAt) >= READ_PERSIST_EVERY_MS) {
      this.readsPersistedAt = now;
      this.setMeta("reads", JSON.stringify(this.reads));
    }
    return decision;
  }

  /** The family's read figures without counting a read (RateLimit headers on creation routes). */
  readStatus(family: ReadFamily, limits: ReadLimits, now: number = Date.now()): ReadDecision {
    return peekRead(this.reads, family, limits, now);
  }

  // ---- internals ---------------------------------------------------------------------------------------

  /** First blocking window (the one freeing last when several block), or null when all admit. */
  private checkWindows(family: "avatar" | "video", limits: AvatarLimits | VideoLimits, now: number): Admission | null {
    let worst: { retry: number; label: string; limit: number } | null = null;
    for (const w of CREATION_WINDOWS) {
      const limit = limits[w.key];
      // Image checks (family avatar_check) share the Avatar per-minute window, and only that one.
      const also = family === "avatar" && w.key === "perMinute" ? "avatar_check" : family;
      const inWindow = this.count("SELECT COUNT(*) AS n FROM creations WHERE family IN (?, ?) AND at > ?", family, also, now - w.ms);
      if (inWindow < limit) continue;
      let retry: number;
      if (limit <= 0) retry = Math.ceil(w.ms / 1000);
      else {
        // The window admits again once the (inWindow − limit + 1) oldest entries have left it.
        const at = this.sql
          .exec<{ at: number }>(
            "SELECT at FROM creations WHERE family IN (?, ?) AND at > ? ORDER BY at ASC LIMIT 1 OFFSET ?",
            family,
            also,
            now - w.ms,
            inWindow - limit,
          )
          .one().at;
        retry = secondsUntil(at + w.ms, now);
      }
      if (!worst || retry > worst.retry) worst = { retry, label: w.label, limit };
    }
    if (!worst) return null;
    return {
      ok: false,
      status: 429,
      code: "rate_limit_exceeded",
      message: `${FAMILY_LABEL[family]} limit exceeded: ${worst.limit} ${worst.label}. Retry after ${worst.retry} seconds.`,
      retryAfterSeconds: worst.retry,
    };
  }

  private settle(jobId: string, state: "captured" | "released", now: number) {
    this.sql.exec("UPDATE reservations SET state = ?, settled_at = ? WHERE job_id = ? AND state = 'reserved'", state, now, jobId);
    if (state === "captured") this.setMeta("avatar_units", String(Number(this.meta("avatar_units") ?? 0) - 1));
  }

  private reservationState(jobId: string): UnitState | null {
    return (this.sql.exec<{ state: UnitState }>("SELECT state FROM reservations WHERE job_id = ?", jobId).toArray()[0]?.state ?? null);
  }

  private prune(now: number) {
    this.sql.exec("DELETE FROM creations WHERE at <= ?", now - DAY_MS);
    this.sql.exec("DELETE FROM reservations WHERE state != 'reserved' AND settled_at <= ?", now - KEEP_SETTLED_MS);
    this.sql.exec("DELETE FROM video_claims WHERE created_at <= ?", now - KEEP_SETTLED_MS);
  }

  private count(query: string, ...bindings: (string | number)[]): number {
    return Number(this.sql.exec<{ n: number }>(query, ...bindings).one().n);
  }

  private meta(key: string): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  }

  private setMeta(key: string, value: string) {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}
