/** Status values of the two job families (spec: States and transitions). */
export const AVATAR_JOB_STATUSES = ["queued", "processing", "succeeded", "failed"] as const;
export const VIDEO_JOB_STATUSES = ["queued", "processing", "succeeded", "failed", "expired"] as const;

export type AvatarJobStatus = (typeof AVATAR_JOB_STATUSES)[number];
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];
