import { createRoute } from "@hono/zod-openapi";
import { MOTION_CLIENT_JS } from "./generated/motion-client";
import { liveSessionRoute } from "./live-session-route";
import { motionApp } from "./openapi-app";
import { LIVE_PAGE_CSS, LIVE_PAGE_HTML, LIVE_PAGE_JS } from "./live-page-html";
import { pageSecurityHeaders } from "../platform/http/page-headers";

const page = createRoute({
  method: "get",
  path: "/",
  summary: "Live Avatar demo page",
  responses: { 200: { description: "HTML page" } },
});
const script = createRoute({
  method: "get",
  path: "/motion-client.js",
  summary: "The motion-client browser library (ES module, bundled from packages/motion-client)",
  responses: { 200: { description: "JavaScript module" } },
});

const asset = (path: string, summary: string) =>
  createRoute({ method: "get", path, summary, responses: { 200: { description: summary } } });
const assetHeaders = (type: string) => ({
  "Content-Type": `${type}; charset=utf-8`,
  "Cache-Control": "public, max-age=300",
});

/**
 * /console/live: a standalone page (no console sign-in needed) and what it loads, under the console's page
 * headers (no framing, no-store, strict CSP; blob: scripts for the AudioWorklet).
 */
const app = motionApp();
app.use("*", pageSecurityHeaders("'self' blob:"));

export const liveRoutes = app
  .openapi(page, (c) => c.html(LIVE_PAGE_HTML, 200))
  .openapi(asset("/live.css", "The page's style sheet"), (c) => c.body(LIVE_PAGE_CSS, 200, assetHeaders("text/css")))
  .openapi(asset("/live.js", "The page's script (ES module)"), (c) =>
    c.body(LIVE_PAGE_JS, 200, assetHeaders("text/javascript")),
  )
  .openapi(script, (c) =>
    c.body(MOTION_CLIENT_JS, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    }),
  )
  .route("/", liveSessionRoute);
