/** R2 object keys (docs/architecture.md "Avatar artifacts"). Keys are never returned to API clients. */
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

/** Every object a video job may have produced. */
export const videoOutputKeys = (jobId: string) => [videoKey(jobId), alphaVideoKey(jobId)];
