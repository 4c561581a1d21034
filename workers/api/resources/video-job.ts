import { z } from "zod";
import type { VideoJob as VideoJobRow } from "../../platform/db/schema";
import { Pagination } from "../pagination/page-params";
import { iso, Timestamp, Uuid } from "./fields";
import { JobError, jobError } from "./job-error";

/** Status values of a video job (spec: States and transitions). */
export const VIDEO_JOB_STATUSES = ["queued", "processing", "succeeded", "failed", "expired"] as const;
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];

export const VideoJob = z
  .object({
    id: Uuid,
    status: z.enum(VIDEO_JOB_STATUSES),
    avatarId: Uuid,
    name: z.string(),
    progress: z
      .object({
        stage: z.string().meta({
          description:
            "What the job is doing, in lower_snake_case: queued, starting, waiting, preparing_media, rendering, encoding, uploading, completed (the stage of a succeeded job, kept after expiry). A failed or expired job keeps the stage it reached. New stage names may appear; stages describe work, not percentages.",
        }),
      })
      .meta({ id: "VideoProgress" }),
    createdAt: Timestamp.meta({ description: "Original acceptance time" }),
    updatedAt: Timestamp,
    completedAt: Timestamp.optional().meta({ description: "Present once the job succeeded or failed" }),
    expiresAt: Timestamp.meta({ description: "Retention deadline of the output (seven days after acceptance)" }),
    error: JobError.optional(),
  })
  .meta({ id: "VideoJob" });

export const VideoJobDetail = z
  .object({
    job: VideoJob,
    videoUrl: z.url().optional().meta({
      description: "Fresh signed MP4 link; only for succeeded, unexpired output. Use it without App headers.",
    }),
    videoUrlExpiresAt: Timestamp.optional().meta({ description: "Link expiry: 15 minutes, capped by job.expiresAt" }),
    alphaVideoUrl: z.url().optional().meta({
      description:
        "Only for jobs created with video.alpha: fresh signed link to the WebM with alpha (VP9 yuva420p + Opus) of the person alone, under the rules of videoUrl. Use it without App headers.",
    }),
    alphaVideoUrlExpiresAt: Timestamp.optional().meta({ description: "Link expiry, as videoUrlExpiresAt" }),
  })
  .meta({ id: "VideoJobDetail" });

export const VideoJobList = z.object({ jobs: z.array(VideoJob), pagination: Pagination }).meta({ id: "VideoJobList" });

/**
 * The status a reader sees. The sweep marks jobs expired once a minute; between its runs a job past its
 * retention deadline is already shown as expired (never as succeeded without a link). Failed stays failed.
 */
export function effectiveVideoStatus(job: Pick<VideoJobRow, "status" | "expiresAt">, now: number): VideoJobStatus {
  if (job.status !== "failed" && job.status !== "expired" && job.expiresAt.getTime() <= now) return "expired";
  return job.status;
}

/**
 * Public view of a video job (a summary: no download link; the detail route adds it). Omitted when they
 * do not apply: completedAt until it is set, error unless failed. Source URLs, storage keys, the
 * fingerprint, the retry key and renderer bookkeeping are never shown.
 */
export function serializeVideoJob(job: VideoJobRow, now: number = Date.now()): z.infer<typeof VideoJob> {
  const status = effectiveVideoStatus(job, now);
  const error = status === "failed" ? jobError("video", job) : undefined;
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
