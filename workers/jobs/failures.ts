import { AVATAR_REASONS, type AvatarReason, isAvatarReason, isSafeDetail } from "@avatar-video/contract";
import { MAX_ATTEMPTS } from "./constants";
import type { JobKind } from "./tokens";

export interface JobError {
  code: string;
  message: string;
  retryable: boolean;
  /** Avatar jobs: why (a code of AVATAR_REASONS). */
  reason?: AvatarReason;
  /** One sentence for the client: the measured value and the rule (defaults to the message). */
  detail?: string;
}

/** Spec "Avatar creation job failure codes": messages verbatim; retryable is the default when the renderer omits it. */
export const AVATAR_FAILURES: Record<string, { message: string; retryable: boolean }> = {
  source_download_failed: { message: "The source image could not be downloaded.", retryable: true },
  invalid_image: { message: "The source image is not a supported opaque JPEG or PNG of sufficient size.", retryable: false },
  image_quality_rejected: { message: "The source image did not pass Avatar image requirements.", retryable: false },
  preprocess_failed: { message: "The source image could not be preprocessed.", retryable: false },
  avatar_generation_failed: { message: "Avatar generation failed.", retryable: true },
  internal_error: { message: "An unexpected error occurred while creating the Avatar; submit the request again.", retryable: true },
};

/**
 * Spec "Video job failure codes". retryable (spec): a new job may succeed once the cause is fixed; false
 * when the same input can never succeed. The message is the renderer's when it is safe to show, else this one.
 */
export const VIDEO_FAILURES: Record<string, { message: string; retryable: boolean }> = {
  source_unavailable: {
    message: "A media source could not be downloaded; keep the URL publicly reachable for the whole preparation window.",
    retryable: true,
  },
  unsupported_media_type: {
    message: "A media source has an unsupported type or content; use one of the accepted audio or image types.",
    retryable: false,
  },
  empty_media: { message: "A media source returned an empty file.", retryable: false },
  media_too_large: { message: "A media source exceeds its size limit (audio 500 MiB, background image 50 MiB).", retryable: false },
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
  session_token_expired: { message: "The rendering session expired before the video was finished; submit a new job.", retryable: true },
  checksum_mismatch: { message: "A media source changed while it was being prepared; submit a new job.", retryable: true },
  render_failed: { message: "Rendering failed; submit a new job.", retryable: true },
  renderer_rejected: { message: "The renderer rejected the job's input; check the request.", retryable: false },
  invalid_manifest: {
    message: "The job's render instructions were invalid; contact support with the job ID if it persists.",
    retryable: false,
  },
};

/** Failures the Worker itself decides (stalls, dispatch rejections, missing outputs). */
export const PIPELINE_FAILURES = {
  avatarStalled: {
    code: "internal_error",
    message: "The Avatar creation job stopped responding and could not be completed; submit the request again.",
    retryable: true,
    reason: "renderer_stalled",
    detail: "The renderer stopped reporting progress and the job could not be completed; submit the request again.",
  },
  videoStalled: {
    code: "render_failed",
    message: `Rendering stopped responding and was abandoned after ${MAX_ATTEMPTS} attempts; submit a new job.`,
    retryable: true,
  },
  avatarNotStarted: {
    code: "avatar_generation_failed",
    message: AVATAR_FAILURES.avatar_generation_failed.message,
    retryable: true,
    reason: "generation_error",
    detail: "The Avatar job could not be started on a renderer; submit the request again.",
  },
  avatarOutputsMissing: {
    code: "avatar_generation_failed",
    message: AVATAR_FAILURES.avatar_generation_failed.message,
    retryable: true,
    reason: "generation_error",
    detail: "The Avatar's files were reported done but are missing from storage; submit the request again.",
  },
  videoOutputMissing: { code: "render_failed", message: "The rendered video could not be stored; submit a new job.", retryable: true },
  avatarDispatchRejected: {
    code: "internal_error",
    message: AVATAR_FAILURES.internal_error.message,
    retryable: false,
    reason: "internal",
    detail: "The renderer refused the job's instructions; contact support with the job ID.",
  },
  videoDispatchRejected: { code: "invalid_manifest", message: VIDEO_FAILURES.invalid_manifest.message, retryable: false },
} satisfies Record<string, JobError>;

/** A renderer message is shown only if it cannot leak a source URL or internal detail. */
const safeMessage = (m: unknown): m is string =>
  typeof m === "string" && m.trim().length > 0 && m.length <= 300 && !/:\/\/|[\r\n]/.test(m);

/** Avatar failures a renderer reported without a reason (older renderers): the code's most general one. */
const DEFAULT_REASON: Record<string, AvatarReason> = {
  source_download_failed: "source_unreachable",
  invalid_image: "image_unreadable",
  image_quality_rejected: "no_face",
  preprocess_failed: "preprocess_error",
  avatar_generation_failed: "generation_error",
  internal_error: "internal",
};

/**
 * The stored error of a renderer-reported failure. Avatar messages are the spec's (verbatim per code);
 * unknown codes become internal_error (Avatar) or render_failed (video). An Avatar `reason` is kept when
 * it is in the shared table and belongs to the code; `detail` when it is one safe sentence (≤ 300
 * characters, no URL, no line break) reported with it.
 */
export function normalizeFailure(
  kind: JobKind,
  reported: { code?: unknown; message?: unknown; retryable?: unknown; reason?: unknown; detail?: unknown },
): JobError {
  const code = typeof reported.code === "string" ? reported.code : "";
  const retryable = typeof reported.retryable === "boolean" ? reported.retryable : undefined;
  if (kind === "avatar") {
    const known = AVATAR_FAILURES[code] ? code : "internal_error";
    const entry = AVATAR_FAILURES[known];
    const ownReason = known === code && isAvatarReason(reported.reason) && AVATAR_REASONS[reported.reason].code === known;
    return explain("avatar", {
      code: known,
      message: entry.message,
      retryable: known === code ? (retryable ?? entry.retryable) : entry.retryable,
      ...(ownReason ? { reason: reported.reason as AvatarReason } : {}),
      ...(ownReason && isSafeDetail(reported.detail) ? { detail: reported.detail.trim() } : {}),
    });
  }
  const known = VIDEO_FAILURES[code] ? code : "render_failed";
  const entry = VIDEO_FAILURES[known];
  return explain("video", {
    code: known,
    message: known === code && safeMessage(reported.message) ? reported.message.trim() : entry.message,
    retryable: known === code ? (retryable ?? entry.retryable) : entry.retryable,
    ...(known === code && isSafeDetail(reported.detail) ? { detail: reported.detail.trim() } : {}),
  });
}

/**
 * Every stored failure says why: Avatar failures get a reason (the code's general one when none was
 * given) and a detail (the reason's summary); video failures a detail (the message when none was given).
 */
export function explain(kind: JobKind, error: JobError): JobError {
  if (kind === "video") return { ...error, detail: error.detail ?? error.message };
  const reason = error.reason ?? DEFAULT_REASON[error.code] ?? "internal";
  return { ...error, reason, detail: error.detail ?? AVATAR_REASONS[reason].summary };
}
