import {
  AVATAR_FAILURES,
  AVATAR_REASONS,
  type AvatarReason,
  failureEntry,
  isAvatarReason,
  isSafeDetail,
  UNEXPECTED_FAILURE_CODE,
  VIDEO_FAILURES,
} from "@avatar-video/contract";
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
  videoOutputMissing: {
    code: "render_failed",
    message: "The rendered video could not be stored; submit a new job.",
    retryable: true,
  },
  /** A split render whose segments do not tile one timeline (their runs disagree): nothing to join. */
  videoSegmentsMismatch: {
    code: "render_failed",
    message: "The video's segments could not be joined; submit a new job.",
    retryable: true,
  },
  avatarDispatchRejected: {
    code: "internal_error",
    message: AVATAR_FAILURES.internal_error.message,
    retryable: false,
    reason: "internal",
    detail: "The renderer refused the job's instructions; contact support with the job ID.",
  },
  videoDispatchRejected: {
    code: "invalid_manifest",
    message: VIDEO_FAILURES.invalid_manifest.message,
    retryable: false,
  },
} satisfies Record<string, JobError>;

/** A `split` event from a run that was not allowed to split (so: a renderer out of step with the Worker). */
export function unexpectedSplit(kind: JobKind, segments: number): JobError {
  return {
    ...(kind === "avatar" ? PIPELINE_FAILURES.avatarDispatchRejected : PIPELINE_FAILURES.videoSegmentsMismatch),
    detail: `The run asked to split the job into ${segments} segments, which it was not allowed to.`,
  };
}

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
 * The stored error of a renderer-reported failure, from the shared table (@avatar-video/contract
 * job-failures.ts). Avatar messages are the spec's (verbatim per code);
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
  const known = failureEntry(kind, code) ? code : UNEXPECTED_FAILURE_CODE[kind];
  const entry = failureEntry(kind, known)!;
  if (kind === "avatar") {
    const ownReason =
      known === code && isAvatarReason(reported.reason) && AVATAR_REASONS[reported.reason].code === known;
    return explain("avatar", {
      code: known,
      message: entry.message,
      retryable: known === code ? (retryable ?? entry.retryable) : entry.retryable,
      ...(ownReason ? { reason: reported.reason as AvatarReason } : {}),
      ...(ownReason && isSafeDetail(reported.detail) ? { detail: reported.detail.trim() } : {}),
    });
  }
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
