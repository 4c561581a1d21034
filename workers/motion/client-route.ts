import { createRoute } from "@hono/zod-openapi";
import { ASSET_CACHE_CONTROL } from "../platform/http/static-asset";
import { MOTION_CLIENT_JS } from "./generated/motion-client";
import { motionApp } from "./openapi-app";

const route = createRoute({
  method: "get",
  path: "/motion-client.js",
  summary:
    "The motion-client browser library (ES module, packages/motion-client) for pages on any origin: import { LiveAvatar } from it",
  responses: { 200: { description: "JavaScript module, readable from any origin" } },
});

/**
 * GET /v1/motion/motion-client.js: the library a page on another site imports to show a live Avatar. A module
 * script from another origin is fetched in CORS mode, so it is served with `Access-Control-Allow-Origin: *`
 * (it is public code, the same for everyone, and carries no credentials). What else such a page reaches is
 * already open to it: the WebSocket (browsers do not apply CORS to it; the session token is the credential)
 * and the signed rig links (rig-route.ts). Nothing that takes an API key gets CORS: minting a session token
 * (POST /v1/console/session-tokens) is for the page's backend.
 */
export const clientRoute = motionApp().openapi(route, (c) =>
  c.body(MOTION_CLIENT_JS, 200, {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ASSET_CACHE_CONTROL,
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "X-Content-Type-Options": "nosniff",
  }),
);
