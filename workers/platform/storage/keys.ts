/** R2 object keys (docs/architecture.md "Avatar artifacts"). Keys are never returned to API clients. */
import { MAX_SEGMENTS } from "@avatar-video/contract";

export const avatarKeys = (avatarId: string) => ({
  portrait: `avatars/${avatarId}/portrait.png`,
  rig: `avatars/${avatarId}/rig.json`,
  cover: `avatars/${avatarId}/cover.jpg`,
  /** The person matte (packages/contract/src/matte-format.ts): made with the Avatar, or by its first video that needs it. */
  matte: `avatars/${avatarId}/matte.png`,
});

export const avatarPrefix = (avatarId: string) => `avatars/${avatarId}/`;

export const videoKey = (jobId: string) => `videos/${jobId}.mp4`;

/** The WebM with alpha of a job with `video.alpha` (kept, linked and deleted with its MP4). */
export const alphaVideoKey = (jobId: string) => `videos/${jobId}.webm`;

/** A split render's parts until the join (docs/pipeline.md "Split renders"): segment `idx`'s frames, the audio track. */
export const videoPartKey = (jobId: string, idx: number) => `videos/${jobId}/part-${idx}.mp4`;
export const videoAudioTrackKey = (jobId: string) => `videos/${jobId}/audio.m4a`;
export const videoPartKeys = (jobId: string) => [
  ...Array.from({ length: MAX_SEGMENTS }, (_, k) => videoPartKey(jobId, k)),
  videoAudioTrackKey(jobId),
];

/** Every object a video job may have produced. */
export const videoOutputKeys = (jobId: string) => [videoKey(jobId), alphaVideoKey(jobId), ...videoPartKeys(jobId)];
