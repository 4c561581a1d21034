import { openApiApp } from "../../platform/http/openapi-app";
import { avatarCheckRoutes } from "./avatar-checks";
import { createAvatarRoute } from "./create-avatar";
import { createVideoRoute } from "./create-video";
import { getAvatarRoute } from "./get-avatar";
import { getAvatarJobRoute } from "./get-avatar-job";
import { getVideoJobRoute } from "./get-video-job";
import { listAvatarJobsRoute } from "./list-avatar-jobs";
import { listAvatarsRoute } from "./list-avatars";
import { listVideoJobsRoute } from "./list-video-jobs";

/**
 * /v1/open: one file per route (request schema, responses, errors and handler together). Authentication
 * is attached per route (appAuth → access → read limit → validation → handler), not as a wildcard
 * middleware, so an unknown path is a 404 and a wrong method a 405 even without credentials. The
 * reference routes (openapi.json, docs) are mounted by public-api.ts, which builds the document.
 */
export const openRoutes = openApiApp()
  .route("/", createAvatarRoute)
  .route("/", avatarCheckRoutes)
  .route("/", listAvatarJobsRoute)
  .route("/", getAvatarJobRoute)
  .route("/", listAvatarsRoute)
  .route("/", getAvatarRoute)
  .route("/", createVideoRoute)
  .route("/", getVideoJobRoute)
  .route("/", listVideoJobsRoute);
