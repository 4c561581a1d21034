import type { VideoJob } from "../db/schema";
import type { VideoJobStatus } from "../schemas/jobs";
import type { VideoJobOut } from "../schemas/videos";
import { iso, jobError } from "./common";

/**
 * The status a reader sees. The sweep marks jobs expired once a minute; between its runs a job past its
 * retention deadline is already shown as expired (never as succeeded without a link). Failed stays failed.
 */
export function effectiveVideoStatus(job: Pick<VideoJob, "status" | "expiresAt">, now: number): VideoJobStatus {
  if (job.status !== "failed" && job.status !== "expired" && job.expiresAt.getTime() <= now) return "expired";
  return job.status;
}

/**
 * Public view of a video job (a summary: no download link; the detail route adds it). Omitted when they
 * do not apply: completedAt until it is set, error unless failed. Source URLs, storage keys, the
 * fingerprint, the retry key and renderer bookkeeping are never shown.
 */
export function serializeVideoJob(job: VideoJob, now: number = Date.now()): VideoJobOut {
  const status = effectiveVideoStatus(job, now);
  const error = status === "failed" ? jobError(job) : undefined;
  return {
    id: job.id,
    status,
    avatarId: job.avatarId,
    name: job.name,
    progress: { stage: job.stage },
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    ...(job.completedAt ? { completedAt: iso(job.completedAt) } : {}),
    expiresAt: iso(job.expiresAt),
    ...(error ? { error } : {}),
  };
}
