import { Hono } from "hono";
import { accountRoutes } from "./account-routes";
import { appRoutes } from "./app-routes";
import { authRoutes } from "./auth-routes";
import { consoleBodyCap } from "./body-caps";
import { avatarRoutes } from "./avatar-routes";
import type { ConsoleEnv } from "./context";
import { fileRoutes } from "./file-route";
import { liveRoutes } from "./live-routes";
import { peopleRoutes } from "./people-routes";
import { staticAsset } from "../platform/http/static-asset";
import { requireSession, securityHeaders } from "./require-session";
import { statusApi } from "./status-api";
import { uploadApi } from "./upload-api";
import { videoRoutes } from "./video-routes";

/**
 * The web console at /console (docs/console.md): server-rendered pages on the same data, limits and units
 * as the Open API. Order matters: the script and style sheet (static assets built from assets/), signed
 * files and the signed-out pages come before the session gate; everything after it needs a session (and a
 * CSRF token for state changes).
 */
export const consoleApp = new Hono<ConsoleEnv>()
  .use("*", securityHeaders)
  .use("*", consoleBodyCap)
  .get("/assets/console.css", staticAsset)
  .get("/assets/console.js", staticAsset)
  .route("/files", fileRoutes)
  .route("/", authRoutes)
  .use("*", requireSession)
  .get("/", (c) => c.redirect("/console/avatars", 303))
  .route("/", avatarRoutes)
  .route("/", videoRoutes)
  .route("/", appRoutes)
  .route("/", peopleRoutes)
  .route("/", liveRoutes)
  .route("/", accountRoutes)
  .route("/api", statusApi)
  .route("/api/uploads", uploadApi);
