/**
 * Model versions of the live motion service (`modelVersion` of session tokens, `ready.modelVersion`).
 * A version names the analysis + animation curves of this package; a new tuning that changes how an
 * Avatar moves gets a new name, and old names stay listed for as long as they are served.
 */
export const MOTION_MODEL_VERSIONS = ["motion-2.1"] as const;
export type MotionModelVersion = (typeof MOTION_MODEL_VERSIONS)[number];
/** Used when a token names no version. */
export const CURRENT_MOTION_MODEL_VERSION: MotionModelVersion = "motion-2.1";

export const isMotionModelVersion = (v: unknown): v is MotionModelVersion =>
  typeof v === "string" && (MOTION_MODEL_VERSIONS as readonly string[]).includes(v);
