export { createAvatarVideoClient, type AvatarVideoClient, type Credentials } from "./client";
export type { components, operations, paths } from "./openapi";
export { AVATAR_POLL_MS, JobWaitError, retryAfterMs, VIDEO_POLL_MS, waitForAvatar, waitForVideo, type WaitOptions } from "./wait";
