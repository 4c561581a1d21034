/**
 * The spec's media rules ("Source image rules", "Media rules"): what the renderer enforces while it downloads
 * and the Worker states in its documentation and console. Content types are compared lower-cased, without
 * parameters.
 */
const MiB = 1024 * 1024;

/** An Avatar's source image: JPEG or PNG (by content), opaque. */
export const SOURCE_IMAGE = {
  maxBytes: 5 * MiB,
  minShortSide: 340,
  /** Decompression-bomb guard: 5 MiB of JPEG can declare 65535² pixels. 50 MP covers any phone photo. */
  maxPixels: 50_000_000,
} as const;

export const AUDIO_TYPES: ReadonlySet<string> = new Set([
  "audio/mpeg",
  "audio/mp3",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/vnd.wave",
  "audio/mp4",
  "audio/x-m4a",
  "audio/aac",
  "audio/ogg",
]);
export const BACKGROUND_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp"]);

/** Hard ceilings of a video's sources (a deployment may configure lower ones on the renderer). */
export const AUDIO_MAX_BYTES = 500 * MiB;
export const BACKGROUND_MAX_BYTES = 50 * MiB;
