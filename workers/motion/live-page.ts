import { createRoute } from "@hono/zod-openapi";
import { MOTION_CLIENT_JS } from "./generated/motion-client";
import { liveSessionRoute } from "./live-session-route";
import { motionApp } from "./openapi-app";
import { pageSecurityHeaders } from "../platform/http/page-headers";
import { ASSET_CACHE_CONTROL, staticAsset } from "../platform/http/static-asset";

const script = createRoute({
  method: "get",
  path: "/motion-client.js",
  summary: "The motion-client browser library (ES module, bundled from packages/motion-client)",
  responses: { 200: { description: "JavaScript module" } },
});
const asset = (path: string, summary: string) =>
  createRoute({ method: "get", path, summary, responses: { 200: { description: summary } } });

/**
 * What the live page (/console/live, served by the console to a signed-in person: live-page-view.tsx) loads, and
 * the App-key session route for backends, under the page headers. Its own script and style sheet are static
 * assets built from assets/; motion-client is the committed bundle of packages/motion-client.
 */
const app = motionApp();
app.use("*", pageSecurityHeaders());

export const liveRoutes = app
  .openapi(asset("/live.css", "The page's style sheet"), staticAsset)
  .openapi(asset("/live.js", "The page's script (ES module)"), staticAsset)
  .openapi(script, (c) =>
    c.body(MOTION_CLIENT_JS, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": ASSET_CACHE_CONTROL,
    }),
  )
  .route("/", liveSessionRoute);
