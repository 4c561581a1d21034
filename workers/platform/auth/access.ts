import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { forbidden } from "../http/errors";

// Access flags of the caller's account (set by appAuth). Messages are the spec's (Authentication table).

export const OPEN_API_ACCESS_MESSAGE = "Open API access is not configured";
export const AVATAR_CREATION_DISABLED_MESSAGE = "API Avatar creation is disabled";
export const VIDEO_ACCESS_MESSAGE = "Video API access is not configured.";
// The spec describes this case without a message of its own; ours says that reads still work.
export const VIDEO_CREATION_DISABLED_MESSAGE = "Video creation is disabled for this account; reads remain available.";

const requireFlag = (
  flag: "openApiAccess" | "avatarCreationEnabled" | "videoAccess" | "videoCreationEnabled",
  message: string,
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!c.get("caller").account[flag]) throw forbidden(message);
    await next();
  });

/** Every /v1/open route. */
export const requireOpenApiAccess = requireFlag("openApiAccess", OPEN_API_ACCESS_MESSAGE);
/** POST /avatars only: Avatar reads keep working while creation is disabled. */
export const requireAvatarCreation = requireFlag("avatarCreationEnabled", AVATAR_CREATION_DISABLED_MESSAGE);
/** Every video route, reads included: removing video access also revokes video reads. */
export const requireVideoAccess = requireFlag("videoAccess", VIDEO_ACCESS_MESSAGE);
/** POST /videos only: video reads keep working while creation is disabled. */
export const requireVideoCreation = requireFlag("videoCreationEnabled", VIDEO_CREATION_DISABLED_MESSAGE);
