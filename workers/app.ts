import { Hono } from "hono";
import { workerConfig } from "./platform/config";
import type { AppEnv } from "./platform/env";
import { ApiError, errorResponse, internalError } from "./platform/http/errors";
import { requestId } from "./platform/http/request-id";
import { methodNotAllowedOrNotFound } from "./platform/http/not-found";
import { logEvent } from "./platform/logging/log-event";
import { consoleApp } from "./console/public";
import { adminRoutes, healthRoutes, mediaRoutes, publicApi } from "./api/public";
import { internalRoutes } from "./pipeline/public";
import { liveRoutes, motionRoutes } from "./motion/public";

export const app = new Hono<AppEnv>();

app.use("*", requestId);
// The settings, read once per env object: a bad one answers 500 and logs which (platform/config.ts).
app.use("*", async (c, next) => {
  workerConfig(c.env);
  await next();
});

// D1, R2, the queue binding and the renderers (api/health.ts); /health/live touches none of them.
app.route("/health", healthRoutes);

app.route("/", publicApi); // /v1/open and /v1/console (api/public-api.ts), with the OpenAPI document
app.route("/v1/admin", adminRoutes);
app.route("/v1/media", mediaRoutes);
app.route("/internal", internalRoutes);
app.route("/v1/motion", motionRoutes); // live motion service (workers/motion/, docs/motion.md)
app.route("/console/live", liveRoutes); // live demo page (before the console's own /console routes)
app.route("/console", consoleApp); // web console pages (workers/console/, docs/console.md)

app.notFound((c) => methodNotAllowedOrNotFound(c, app));

app.onError((err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err);
  logEvent(
    "request_failed",
    {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      error: String(err),
      stack: (err as Error).stack,
    },
    "error",
  );
  return errorResponse(c, internalError());
});
