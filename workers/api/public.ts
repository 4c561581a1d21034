/**
 * What the other wings and the Worker's entry use of the API wing: its routers, job creation (the console
 * creates jobs exactly as the Open API does), the pre-flight check and the resource views.
 */
export { adminRoutes } from "./admin/routes";
export { checkAvatarImage } from "./avatar-checks/check";
export { normalizeVideoInput } from "./idempotency/fingerprint";
export { createAvatarJob } from "./jobs/create-avatar-job";
export { AVATAR_DENIED_MESSAGE, createVideoJob } from "./jobs/create-video-job";
export { healthRoutes } from "./health";
export { mediaRoutes } from "./media";
export { CreateVideoRequest } from "./open/create-video";
export { publicApi } from "./public-api";
export { serializeAvatarJob } from "./resources/avatar-job";
export { effectiveVideoStatus, serializeVideoJob } from "./resources/video-job";
export { VIDEO_DEFAULTS } from "./schemas/video-settings";
