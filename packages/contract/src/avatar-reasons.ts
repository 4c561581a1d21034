/**
 * Why an Avatar source image was refused, or why an Avatar creation job failed: `error.reason` on failed
 * Avatar jobs and `reason` of POST /avatar-checks. One table for the renderer (which decides) and the
 * Worker (which stores, documents and serves it). Codes are stable; new ones may be added, never renamed.
 * Each reason belongs to exactly one spec failure code (`job.error.code`). docs/avatar-image-rules.md
 * explains every threshold behind them.
 */
import type { AvatarFailureCode } from "./job-failures";

export const AVATAR_REASONS = {
  // source_download_failed
  source_unreachable: {
    code: "source_download_failed",
    summary: "The image URL could not be reached (DNS, connection or transfer error).",
  },
  source_timeout: {
    code: "source_download_failed",
    summary: "The image host did not answer within 3 seconds, or the transfer took too long.",
  },
  source_http_error: { code: "source_download_failed", summary: "The image host answered with an HTTP error status." },
  source_refused: {
    code: "source_download_failed",
    summary:
      "The URL, or a redirect, leads to a destination that is not allowed (private network, credentials, too many redirects).",
  },
  // invalid_image
  file_too_large: { code: "invalid_image", summary: "The file is larger than 5 MiB." },
  file_empty: { code: "invalid_image", summary: "The URL returned an empty file." },
  unsupported_format: {
    code: "invalid_image",
    summary: "The file is not a JPEG or PNG (judged by its content, not its name or Content-Type).",
  },
  image_unreadable: {
    code: "invalid_image",
    summary: "The file looks like a JPEG or PNG but cannot be decoded (truncated or corrupt).",
  },
  image_too_small: { code: "invalid_image", summary: "The shorter side is under 340 pixels." },
  image_too_many_pixels: { code: "invalid_image", summary: "The image declares more than 50 megapixels." },
  image_transparent: { code: "invalid_image", summary: "The PNG has transparent or translucent pixels." },
  // image_quality_rejected
  no_face: { code: "image_quality_rejected", summary: "No face was found." },
  multiple_faces: { code: "image_quality_rejected", summary: "More than one face was found." },
  face_too_small: { code: "image_quality_rejected", summary: "The face is narrower than 64 pixels (ear to ear)." },
  face_blurred: { code: "image_quality_rejected", summary: "The face is out of focus or motion-blurred." },
  face_turned: {
    code: "image_quality_rejected",
    summary: "The head is turned sideways (yaw) or up/down (pitch) by more than 30°.",
  },
  face_tilted: { code: "image_quality_rejected", summary: "The head is tilted sideways (roll) by more than 35°." },
  face_occluded: {
    code: "image_quality_rejected",
    summary: "A face is there but its features cannot be traced (covered, or too dark or unclear).",
  },
  face_cut_off: { code: "image_quality_rejected", summary: "Part of the face lies outside the image." },
  // preprocess_failed, avatar_generation_failed, internal_error
  preprocess_error: { code: "preprocess_failed", summary: "The accepted image could not be cropped or encoded." },
  generation_error: {
    code: "avatar_generation_failed",
    summary: "The face could not be turned into an animatable Avatar, or its files could not be stored.",
  },
  renderer_stalled: { code: "internal_error", summary: "The job stopped responding." },
  internal: { code: "internal_error", summary: "An unexpected error occurred on our side." },
} as const satisfies Record<string, { code: AvatarFailureCode; summary: string }>;

export type AvatarReason = keyof typeof AVATAR_REASONS;

export const AVATAR_REASON_CODES = Object.keys(AVATAR_REASONS) as [AvatarReason, ...AvatarReason[]];

export function isAvatarReason(value: unknown): value is AvatarReason {
  return typeof value === "string" && Object.hasOwn(AVATAR_REASONS, value);
}

/** `error.detail`: one sentence, at most this long, never a URL or a line break (checked on both sides). */
export const DETAIL_MAX_LENGTH = 300;

export function isSafeDetail(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.trim().length > 0 &&
    value.length <= DETAIL_MAX_LENGTH &&
    !/:\/\/|[\r\n]/.test(value)
  );
}
