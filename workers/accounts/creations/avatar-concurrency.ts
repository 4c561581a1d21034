/** Concurrent active Avatar creation jobs: the set of jobs queued or processing (`active_avatar_jobs`). */
import { count } from "../limiter-store";
import type { Admission } from "../admission";

/** No concurrency slot frees at a known time; suggest polling at the spec's job polling interval. */
const CONCURRENCY_RETRY_AFTER_S = 10;

export function concurrencyRefusal(sql: SqlStorage, limit: number): Admission | null {
  if (activeCount(sql) < limit) return null;
  return {
    ok: false,
    code: "concurrency_limit_exceeded",
    message: `Too many Avatar creation jobs queued or processing: the limit is ${limit}. Retry when one ends.`,
    retryAfterSeconds: CONCURRENCY_RETRY_AFTER_S,
  };
}

export function activeAvatarJobs(sql: SqlStorage): { job_id: string; since: number }[] {
  return sql.exec<{ job_id: string; since: number }>("SELECT job_id, since FROM active_avatar_jobs").toArray();
}

export const activeCount = (sql: SqlStorage) => count(sql, "SELECT COUNT(*) AS n FROM active_avatar_jobs");

export function markActive(sql: SqlStorage, jobId: string, now: number): void {
  sql.exec("INSERT OR IGNORE INTO active_avatar_jobs (job_id, since) VALUES (?, ?)", jobId, now);
}

export function markEnded(sql: SqlStorage, jobId: string): void {
  sql.exec("DELETE FROM active_avatar_jobs WHERE job_id = ?", jobId);
}
