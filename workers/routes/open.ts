import { Hono } from "hono";
import type { AppEnv } from "../env";
import { avatarCheckRoutes } from "./open/avatar-checks";
import { avatarJobRoutes } from "./open/avatar-jobs";
import { avatarRoutes } from "./open/avatars";
import { referenceRoutes } from "./open/reference";
import { videoJobRoutes } from "./open/video-jobs";
import { videoRoutes } from "./open/videos";

/**
 * /v1/open. Authentication is attached per route (appAuth → access → read limit → validation → handler),
 * not as a wildcard middleware, so an unknown path is a 404 and a wrong method a 405 even without
 * credentials. The route list and its schemas live in workers/openapi/contract.ts.
 */
export const openRoutes = new Hono<AppEnv>()
  .route("/", avatarRoutes)
  .route("/", avatarCheckRoutes)
  .route("/", avatarJobRoutes)
  .route("/", videoRoutes)
  .route("/", videoJobRoutes)
  .route("/", referenceRoutes);
