export { createApiClient, type ApiClient, type ClientOptions } from "./api.js";
export { AvatarVideo } from "./avatar-video.js";
export { AvatarVideoError, type AvatarVideoErrorInit, type ErrorCode } from "./errors.js";
export type { components, operations, paths } from "./openapi.js";
export type { ListOptions } from "./pages.js";
export type { AvatarJobListOptions } from "./resources/avatar-jobs.js";
export type * from "./resources/types.js";
export type { CreateVideoOptions, VideoJobListOptions } from "./resources/videos.js";
export { AVATAR_POLL_MS, VIDEO_POLL_MS, type WaitOptions } from "./wait.js";
