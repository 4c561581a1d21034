/**
 * Every job failure code (`job.error.code`) with its standard message and default `retryable`: the spec's
 * "Avatar creation job failure codes" and "Video job failure codes". One table read by the renderer (which
 * reports failures), the Worker (which stores and serves them), the OpenAPI document and docs/pipeline.md.
 * Changing a message is a one-line change here.
 *
 * Avatar messages are stored verbatim whatever the renderer says. Video messages are defaults: the Worker
 * keeps a renderer's own message when it is safe to show (≤ 300 characters, no URL). `retryable` (spec): a
 * new job may succeed once the cause is fixed; false when the same input can never succeed.
 */
export const AVATAR_FAILURES = {
  source_download_failed: { message: "The source image could not be downloaded.", retryable: true },
  invalid_image: {
    message: "The source image is not a supported opaque JPEG or PNG of sufficient size.",
    retryable: false,
  },
  image_quality_rejected: { message: "The source image did not pass Avatar image requirements.", retryable: false },
  preprocess_failed: { message: "The source image could not be preprocessed.", retryable: false },
  avatar_generation_failed: { message: "Avatar generation failed.", retryable: true },
  internal_error: {
    message: "An unexpected error occurred while creating the Avatar; submit the request again.",
    retryable: true,
  },
} as const satisfies Record<string, FailureEntry>;

export const VIDEO_FAILURES = {
  source_unavailable: {
    message:
      "A media source could not be downloaded; keep the URL publicly reachable for the whole preparation window.",
    retryable: true,
  },
  unsupported_media_type: {
    message: "A media source has an unsupported type or content; use one of the accepted audio or image types.",
    retryable: false,
  },
  empty_media: { message: "A media source returned an empty file.", retryable: false },
  media_too_large: {
    message: "A media source exceeds its size limit (audio 500 MiB, background image 50 MiB).",
    retryable: false,
  },
  preparation_timeout: {
    message: "Media preparation did not finish within its deadline (5 minutes per transfer, 30 minutes in total).",
    retryable: true,
  },
  app_access_revoked: {
    message: "The App that created this job no longer has video access; restore access and submit a new job.",
    retryable: true,
  },
  avatar_forbidden: {
    message: "The Avatar is no longer available to this account; restore Avatar access and submit a new job.",
    retryable: true,
  },
  session_token_expired: {
    message: "The rendering session expired before the video was finished; submit a new job.",
    retryable: true,
  },
  checksum_mismatch: {
    message: "A media source changed while it was being prepared; submit a new job.",
    retryable: true,
  },
  render_failed: { message: "Rendering failed; submit a new job.", retryable: true },
  renderer_rejected: { message: "The renderer rejected the job's input; check the request.", retryable: false },
  invalid_manifest: {
    message: "The job's render instructions were invalid; contact support with the job ID if it persists.",
    retryable: false,
  },
} as const satisfies Record<string, FailureEntry>;

export interface FailureEntry {
  message: string;
  retryable: boolean;
}

export type AvatarFailureCode = keyof typeof AVATAR_FAILURES;
export type VideoFailureCode = keyof typeof VIDEO_FAILURES;
export type JobFailureCode = AvatarFailureCode | VideoFailureCode;
export type JobKind = "avatar" | "video";

export const JOB_FAILURES = { avatar: AVATAR_FAILURES, video: VIDEO_FAILURES } as const;

export const AVATAR_FAILURE_CODES = Object.keys(AVATAR_FAILURES) as [AvatarFailureCode, ...AvatarFailureCode[]];
export const VIDEO_FAILURE_CODES = Object.keys(VIDEO_FAILURES) as [VideoFailureCode, ...VideoFailureCode[]];

/** The code a job of this kind fails with when something unexpected breaks on our side. */
export const UNEXPECTED_FAILURE_CODE = { avatar: "internal_error", video: "render_failed" } as const satisfies {
  avatar: AvatarFailureCode;
  video: VideoFailureCode;
};

/** The table entry of a code of this kind, or undefined when the code is not one of the kind's. */
export function failureEntry(kind: JobKind, code: string): FailureEntry | undefined {
  const table: Record<string, FailureEntry> = JOB_FAILURES[kind];
  return Object.hasOwn(table, code) ? table[code] : undefined;
}
