import { z } from "zod";
import { JobError, Name, SourceUrl, Timestamp, Uuid } from "./common";
import { VIDEO_JOB_STATUSES } from "./jobs";
import { Pagination, PaginationQuery, statusesParam } from "./pagination";
import { VideoSettingsInput } from "./video-settings";

// ---- requests ----------------------------------------------------------------------------------

export const CreateVideoRequest = z
  .strictObject({
    avatarId: Uuid.meta({ description: "An Avatar the account owns, a public Avatar, or one explicitly allowed for the account" }),
    audioUrl: SourceUrl.meta({ description: "Public http(s) URL of the audio (at most 500 MiB); signed query parameters allowed" }),
    backgroundUrl: SourceUrl.optional().meta({ description: "Public http(s) URL of a PNG, JPEG or WebP background (at most 50 MiB)" }),
    name: Name.optional().meta({ description: "1 to 128 characters; default derived from the job ID" }),
    requestId: Uuid.optional().meta({ description: "Retry key, shared across all Apps of the account" }),
    video: VideoSettingsInput.optional(),
  })
  .meta({ id: "CreateVideoRequest" });

export type CreateVideoInput = z.infer<typeof CreateVideoRequest>;

const NO_CALLBACKS = "the video API sends no callbacks or webhooks; poll GET /video-jobs/{jobId}";
const NO_TTS = "text-to-speech is unavailable; send an audioUrl";
const NO_UPLOADS = "uploads are unavailable; send a public audioUrl";

/** Top-level fields of features this version lacks (501 unsupported_input instead of 400). */
export const VIDEO_UNSUPPORTED_FIELDS = {
  callbackUrl: NO_CALLBACKS,
  webhookUrl: NO_CALLBACKS,
  callback: NO_CALLBACKS,
  webhook: NO_CALLBACKS,
  text: NO_TTS,
  script: NO_TTS,
  voice: NO_TTS,
  voiceId: NO_TTS,
  audio: NO_UPLOADS,
  audioBase64: NO_UPLOADS,
  file: NO_UPLOADS,
  outputUrl: "output is kept by the service for the retention period only; download it from videoUrl",
  retention: "the retention period is set by the service",
};

export const VideoJobPath = z.strictObject({ jobId: Uuid });

export const ListVideoJobsQuery = z.strictObject({
  statuses: statusesParam(VIDEO_JOB_STATUSES).optional(),
  ...PaginationQuery,
});

// ---- responses ---------------------------------------------------------------------------------

export const CreateVideoResponse = z
  .object({
    jobId: Uuid,
    status: z.enum(VIDEO_JOB_STATUSES).meta({ description: "queued for a new job; the current status for a retry" }),
    createdAt: Timestamp.meta({ description: "Original acceptance time, also on a retry" }),
  })
  .meta({ id: "CreateVideoResponse" });

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
    videoUrl: z.url().optional().meta({ description: "Fresh signed MP4 link; only for succeeded, unexpired output. Use it without App headers." }),
    videoUrlExpiresAt: Timestamp.optional().meta({ description: "Link expiry: 15 minutes, capped by job.expiresAt" }),
  })
  .meta({ id: "VideoJobDetail" });

export const VideoJobList = z.object({ jobs: z.array(VideoJob), pagination: Pagination }).meta({ id: "VideoJobList" });

export type VideoJobOut = z.infer<typeof VideoJob>;
