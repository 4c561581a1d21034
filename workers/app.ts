import { Hono } from "hono";
import type { AppEnv } from "./env";
import { ApiError, errorResponse } from "./http/errors";
import { requestId } from "./http/request-id";
import { methodNotAllowedOrNotFound } from "./http/not-found";
import { adminRoutes } from "./routes/admin";
import { consoleRoutes } from "./routes/console";
import { internalRoutes } from "./routes/internal";
import { mediaRoutes } from "./routes/media";
import { openRoutes } from "./routes/open";

export const app = new Hono<AppEnv>();

app.use("*", requestId);

// Liveness of the Worker itself (no bindings touched): used by the local stack launcher and benchmarks.
app.get("/health", (c) => c.json({ ok: true }));

app.route("/v1/open", openRoutes);
app.route("/v1/console", consoleRoutes);
app.route("/v1/admin", adminRoutes);
app.route("/v1/media", mediaRoutes);
app.route("/internal", internalRoutes);

app.notFound((c) => methodNotAllowedOrNotFound(c, app));

app.onError((err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err);
  console.error(JSON.stringify({ requestId: c.get("requestId"), error: String(err), stack: (err as Error).stack }));
  return errorResponse(c, new ApiError(500, "internal_error", "An unexpected error occurred. Retry with bounded backoff."));
});
