/**
 * Avatar refusals: the source image breaks a rule of image-rules.ts (file, image, face), or the Avatar
 * cannot be made from an accepted image. Each carries its reason (@avatar-video/contract AVATAR_REASONS)
 * and one client sentence with the measured value and the rule.
 */
import { AVATAR_FAILURES, AVATAR_REASONS, type AvatarReason } from "@avatar-video/contract";
import { JobFailure } from "./failures";
import * as R from "./image-rules";

/** A refusal or failure with its reason and client sentence; `log` is for the renderer's logs only. */
export function refusal(reason: AvatarReason, clientDetail: string, log?: string, retryable = false): JobFailure {
  const code = AVATAR_REASONS[reason].code;
  return new JobFailure(code, AVATAR_FAILURES[code].message, {
    retryable,
    detail: log ?? `${reason}: ${clientDetail}`,
    explain: { reason, clientDetail },
  });
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const deg = (n: number) => `${Math.round(Math.abs(n))}°`;

// ── file ───────────────────────────────────────────────────────────────────────────────────────────────
export const fileTooLarge = (bytes?: number) =>
  refusal(
    "file_too_large",
    bytes === undefined
      ? `The file is larger than ${int(R.MAX_SOURCE_BYTES)} bytes (5 MiB), the most accepted.`
      : `The file is ${int(bytes)} bytes; at most ${int(R.MAX_SOURCE_BYTES)} bytes (5 MiB) is accepted.`,
  );
export const fileEmpty = () => refusal("file_empty", "The image URL returned an empty file.");
export const unsupportedFormat = (seen: string) =>
  refusal("unsupported_format", `The file is ${seen}; only JPEG and PNG are accepted.`);
export const imageUnreadable = (format: string, log: string) =>
  refusal(
    "image_unreadable",
    `The file starts like a ${format.toUpperCase()} but cannot be decoded; it may be truncated or corrupt.`,
    log,
  );
export const imageTooSmall = (width: number, height: number) =>
  refusal(
    "image_too_small",
    `The image is ${width}×${height} px; its shorter side must be at least ${R.MIN_SHORT_SIDE} px. Use a larger photo.`,
  );
export const imageTooManyPixels = (width: number, height: number) =>
  refusal(
    "image_too_many_pixels",
    `The image is ${width}×${height} px (${((width * height) / 1e6).toFixed(0)} MP); at most ${R.MAX_SOURCE_PIXELS / 1e6} MP is accepted.`,
  );
export const imageTransparent = (pixels: number) =>
  refusal(
    "image_transparent",
    `The PNG has ${int(pixels)} transparent or translucent pixel${pixels === 1 ? "" : "s"}; it must be fully opaque.`,
  );

// ── faces ──────────────────────────────────────────────────────────────────────────────────────────────
export const noFace = (smallestFindablePx: number) =>
  refusal(
    "no_face",
    smallestFindablePx > R.CLEAR_MIN_FACE_WIDTH_PX
      ? `No face was found; in a photo this large only faces at least ${int(smallestFindablePx)} px wide can be found. Use a photo of one face looking at the camera.`
      : "No face was found. Use a photo of one face looking at the camera.",
  );
export const multipleFaces = (n: number) =>
  refusal("multiple_faces", `${n} faces were found; exactly one is needed. Crop the photo to one person.`);
export const faceTooSmall = (widthPx: number) =>
  refusal(
    "face_too_small",
    `The face is ${int(widthPx)} px wide; at least ${R.CLEAR_MIN_FACE_WIDTH_PX} px is needed. Use a closer or larger photo.`,
  );
export const faceBlurred = (sharpness: number) =>
  refusal(
    "face_blurred",
    `The face is blurred (sharpness ${sharpness.toFixed(3)}; at least ${R.CLEAR_MIN_SHARPNESS.toFixed(3)} is needed). Use a sharp, in-focus photo.`,
  );
export const faceTurned = (axis: "yaw" | "pitch", angle: number) =>
  refusal(
    "face_turned",
    axis === "yaw"
      ? `The head is turned ${deg(angle)} to the side; at most ${R.CLEAR_MAX_YAW}° is accepted. Use a photo looking at the camera.`
      : `The head is tilted ${deg(angle)} ${angle > 0 ? "up" : "down"}; at most ${R.CLEAR_MAX_PITCH}° is accepted. Use a photo looking at the camera.`,
  );
export const faceTilted = (roll: number) =>
  refusal(
    "face_tilted",
    `The head is tilted ${deg(roll)} sideways; at most ${R.CLEAR_MAX_ROLL}° is accepted. Straighten the photo.`,
  );
export const faceOccluded = (what: "mesh" | "detector", score: number) =>
  refusal(
    "face_occluded",
    what === "mesh"
      ? `A face was found but its features could not be traced (landmark confidence ${score.toFixed(2)}; at least ${R.CLEAR_MIN_MESH_SCORE.toFixed(2)} is needed). Make sure nothing covers the face and it is well lit.`
      : `The face is unclear (detector confidence ${score.toFixed(2)}; at least ${R.CLEAR_MIN_DETECTOR_SCORE.toFixed(2)} is needed). Make sure nothing covers the face and it is well lit.`,
  );
export const faceCutOff = (side: string, px: number) =>
  refusal(
    "face_cut_off",
    `The face reaches ${int(Math.max(1, px))} px past the ${side} edge of the image; the whole face must be inside the photo.`,
  );

// ── Avatar failures after the image was accepted ───────────────────────────────────────────────────────
/** After validation: resubmitting helps only when the cause was plausibly transient (e.g. memory). */
export function preprocessFailed(detail: string, retryable: boolean): JobFailure {
  return refusal(
    "preprocess_error",
    retryable
      ? "The image passed every check but the renderer ran short of resources while cropping it; submit it again."
      : "The image passed every check but could not be cropped or encoded.",
    detail,
    retryable,
  );
}

export function avatarGenerationFailed(detail: string): JobFailure {
  return refusal("generation_error", "The face was found but could not be turned into an animatable Avatar.", detail);
}

/** Our fault (e.g. the face models did not load): the same request may well succeed later. */
export function internalError(detail: string): JobFailure {
  return refusal("internal", "An unexpected error occurred on our side; submit the request again.", detail, true);
}
