/**
 * Retry-key claims of video creations (table `video_claims`): a request's `requestId` is recorded with the job
 * it created and the fingerprint of its input, in the same step as the admission, so a retry finds its job.
 */
import type { Admission } from "../admission";

/** A video creation's retry-key claim, recorded atomically with its admission. */
export interface VideoClaim {
  jobId: string;
  /** The caller's retry key (body `requestId`); null when the request has none. */
  requestId: string | null;
  /** SHA-256 of the normalized input. */
  fingerprint: string;
  /** Acceptance time (epoch ms) the job will carry. */
  createdAt: number;
}

export interface ExistingClaim {
  jobId: string;
  fingerprint: string;
  createdAt: number;
}

export type VideoAdmission = Admission & { existing?: ExistingClaim };

/** The claim already recorded under `requestId`, if any. */
export function findClaim(sql: SqlStorage, requestId: string): ExistingClaim | undefined {
  const row = sql
    .exec<{ job_id: string; fingerprint: string; created_at: number }>(
      "SELECT job_id, fingerprint, created_at FROM video_claims WHERE request_id = ?",
      requestId,
    )
    .toArray()[0];
  return row && { jobId: row.job_id, fingerprint: row.fingerprint, createdAt: row.created_at };
}

/** Records the claim; a creation without a retry key claims nothing. */
export function recordClaim(sql: SqlStorage, claim: VideoClaim): void {
  if (claim.requestId === null) return;
  sql.exec(
    "INSERT INTO video_claims (request_id, job_id, fingerprint, created_at) VALUES (?, ?, ?, ?)",
    claim.requestId,
    claim.jobId,
    claim.fingerprint,
    claim.createdAt,
  );
}
