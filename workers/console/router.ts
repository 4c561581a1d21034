import { Hono } from "hono";
import { accountRoutes } from "./account-routes";
import { appRoutes } from "./app-routes";
import { CONSOLE_JS } from "./assets/script";
import { CONSOLE_CSS } from "./assets/styles";
import { authRoutes } from "./auth-routes";
import { consoleBodyCap } from "./body-caps";
import { avatarRoutes } from "./avatar-routes";
import type { ConsoleEnv } from "./context";
import { fileRoutes } from "./file-route";
import { requireSession, securityHeaders } from "./require-session";
import { statusApi } from "./status-api";
import { uploadApi } from "./upload-api";
import { videoRoutes } from "./video-routes";

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "public, max-age=300" } });

/**
 * The web console at /console (docs/console.md): server-rendered pages on the same data, limits and units
 * as the Open API. Order matters: assets, signed files and the signed-out pages come before the session
 * gate; everything after it needs a session (and a CSRF token for state changes).
 */
export const consoleApp = new Hono<ConsoleEnv>()
  .use("*", securityHeaders)
  .use("*", consoleBodyCap)
  .get("/assets/console.css", asset(CONSOLE_CSS, "text/css"))
  .get("/assets/console.js", asset(CONSOLE_JS, "text/javascript"))
  .route("/files", fileRoutes)
  .route("/", authRoutes)
  .use("*", requireSession)
  .get("/", (c) => c.redirect("/console/avatars", 303))
  .route("/", avatarRoutes)
  .route("/", videoRoutes)
  .route("/", appRoutes)
  .route("/", accountRoutes)
  .route("/api", statusApi)
  .route("/api/uploads", uploadApi);
