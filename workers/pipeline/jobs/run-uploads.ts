import { eq } from "drizzle-orm";
import { jobUploads } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { db } from "./store";
import type { JobKind } from "./tokens";

/**
 * The multipart uploads of job runs (docs/pipeline.md "Retention"). R2 cannot list unfinished uploads from a
 * Worker, and a fenced or dead run never completes nor abandons its own (its requests answer 409), so each
 * upload is recorded when a run starts it and forgotten when that run completes or abandons it; the sweep
 * aborts every recorded upload whose run is no longer current (a newer attempt runs, or the job ended), so
 * its parts are gone within a sweep period instead of R2's own 7 days.
 */

export interface RunUpload {
  uploadId: string;
  kind: JobKind;
  /** The run's job, or a split render's run (`{jobId}/{idx}`). */
  jobId: string;
  attempt: number;
  key: string;
}

export async function recordRunUpload(env: Env, upload: RunUpload, now = Date.now()): Promise<void> {
  await db(env)
    .insert(jobUploads)
    .values({ ...upload, createdAt: new Date(now) });
}

export async function forgetRunUpload(env: Env, uploadId: string): Promise<void> {
  await db(env).delete(jobUploads).where(eq(jobUploads.uploadId, uploadId));
}

const BATCH = 50;
const current = (table: string, kind: JobKind) =>
  `exists (select 1 from ${table} j where u.kind = '${kind}' and j.id = u.job_id and j.status = 'processing' and j.attempt = u.attempt)`;
// A split render's run records its upload under its run id, `{jobId}/{idx}` (queue/messages.ts runId).
const SEGMENT_CURRENT = `exists (select 1 from video_segments s join video_jobs j on j.id = s.job_id
  where u.kind = 'video' and s.job_id || '/' || s.idx = u.job_id and s.status = 'processing'
    and s.attempt = u.attempt and j.status = 'processing')`;
const NOT_CURRENT = `
  select u.upload_id as uploadId, u.key from job_uploads u
  where not ${current("video_jobs", "video")} and not ${current("avatar_jobs", "avatar")} and not ${SEGMENT_CURRENT}
  order by u.created_at limit ${BATCH}`;

/**
 * Aborts the uploads of runs that are no longer current (at most BATCH per call); returns how many. An
 * abort that fails (R2 already dropped or completed the upload) forgets the upload too: R2's own expiry of
 * unfinished uploads (7 days) is the backstop.
 */
export async function abortStaleRunUploads(env: Env): Promise<number> {
  const rows = (await env.DB.prepare(NOT_CURRENT).all<{ uploadId: string; key: string }>()).results;
  for (const { uploadId, key } of rows) {
    await env.MEDIA.resumeMultipartUpload(key, uploadId)
      .abort()
      .catch(() => {});
    await forgetRunUpload(env, uploadId);
  }
  return rows.length;
}
