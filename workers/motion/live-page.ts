import { createRoute } from "@hono/zod-openapi";
import { MOTION_CLIENT_JS } from "./generated/motion-client";
import { liveSessionRoute } from "./live-session-route";
import { motionApp } from "./openapi-app";
import { LIVE_PAGE_HTML } from "./live-page-html";

const page = createRoute({ method: "get", path: "/", summary: "Live Avatar demo page", responses: { 200: { description: "HTML page" } } });
const script = createRoute({
  method: "get",
  path: "/motion-client.js",
  summary: "The motion-client browser library (ES module, bundled from packages/motion-client)",
  responses: { 200: { description: "JavaScript module" } },
});

/** /console/live: a standalone page (no console sign-in needed) and the library it loads. */
export const liveRoutes = motionApp()
  .openapi(page, (c) => c.html(LIVE_PAGE_HTML, 200, { "Cache-Control": "no-store" }))
  .openapi(script, (c) => c.body(MOTION_CLIENT_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300" }))
  .route("/", liveSessionRoute);
