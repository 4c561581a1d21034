/**
 * The limiter's half of reconciliation (reconcile.ts asks D1, then calls this): the jobs it holds open, and
 * aligning its concurrency set and reservations with what D1 records about them.
 */
import { activeAvatarJobs, markActive, markEnded } from "../creations/avatar-concurrency";
import { type Balance, balance, reservedJobs, settle } from "../avatar-units";

export interface ReconcileInput {
  /** Avatar jobs of the account that D1 shows queued or processing. */
  activeAvatarJobs: string[];
  /** Jobs whose unit D1 records as captured (or that succeeded). */
  capturedJobs: string[];
  /** Jobs whose unit D1 records as released (or that failed while still reserved). */
  releasedJobs: string[];
}

export interface ReconcileResult {
  /** Concurrency entries dropped (job no longer active in D1) and added (active in D1, unknown here). */
  deactivated: string[];
  activated: string[];
  captured: string[];
  released: string[];
  balance: Balance;
}

/** Jobs admitted this recently may not be in D1 yet: reconcile leaves them alone. */
export const RECONCILE_GRACE_MS = 120_000;

/** Jobs this object holds as active or with a reserved unit: what reconcileAccount looks up in D1. */
export function listOpenJobs(sql: SqlStorage): { active: string[]; reserved: string[] } {
  return { active: activeAvatarJobs(sql).map((r) => r.job_id), reserved: reservedJobs(sql).map((r) => r.job_id) };
}

/**
 * The concurrency set becomes the active jobs (entries younger than the grace period are kept: their D1 row
 * may not exist yet); reserved units are captured or released as D1 says; a unit still reserved for a job D1
 * does not list at all (admitted, never stored) is released once older than the grace period.
 */
export function alignWithD1(sql: SqlStorage, input: ReconcileInput, now: number): ReconcileResult {
  const active = new Set(input.activeAvatarJobs);
  const captured = new Set(input.capturedJobs);
  const released = new Set(input.releasedJobs);
  const result: ReconcileResult = { deactivated: [], activated: [], captured: [], released: [], balance: balance(sql) };
  const known = new Set(listOpenJobs(sql).active);
  for (const row of activeAvatarJobs(sql)) {
    if (!active.has(row.job_id) && row.since <= now - RECONCILE_GRACE_MS) {
      markEnded(sql, row.job_id);
      result.deactivated.push(row.job_id);
    }
  }
  for (const jobId of active) {
    if (!known.has(jobId)) {
      markActive(sql, jobId, now);
      result.activated.push(jobId);
    }
  }
  for (const row of reservedJobs(sql)) {
    if (captured.has(row.job_id)) {
      settle(sql, row.job_id, "captured", now);
      result.captured.push(row.job_id);
    } else if (released.has(row.job_id) || (!active.has(row.job_id) && row.reserved_at <= now - RECONCILE_GRACE_MS)) {
      settle(sql, row.job_id, "released", now);
      result.released.push(row.job_id);
    }
  }
  result.balance = balance(sql);
  return result;
}
