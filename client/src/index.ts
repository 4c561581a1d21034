export { createApiClient, type ApiClient, type RequestOptions, USER_AGENT } from "./api.js";
export { ApiPromise, type WithResponse } from "./api-promise.js";
export { AvatarVideo } from "./avatar-video.js";
export { type ClientOptions, DEFAULT_BASE_URL } from "./config.js";
export { AvatarVideoError, type AvatarVideoErrorInit, type ErrorCode } from "./errors.js";
export type { RequestHooks, RequestInfo, ResponseInfo } from "./hooks.js";
export type { components, operations, paths } from "./openapi.js";
export type { ListOptions } from "./pages.js";
export type { AvatarJobListOptions } from "./resources/avatar-jobs.js";
export {
  type CreateSessionTokenOptions,
  SESSION_TOKEN_TTL_SECONDS,
  type SessionToken,
} from "./resources/session-tokens.js";
export type * from "./resources/types.js";
export type { CreateVideoOptions, VideoJobListOptions } from "./resources/videos.js";
export { VERSION } from "./version.js";
export { AVATAR_POLL_MS, VIDEO_POLL_MS, type WaitOptions } from "./wait.js";
