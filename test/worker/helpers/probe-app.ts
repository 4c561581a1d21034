import { env } from "cloudflare:test";
import { Hono } from "hono";
import {
  requireAvatarCreation,
  requireOpenApiAccess,
  requireVideoAccess,
  requireVideoCreation,
} from "../../../workers/platform/auth/access";
import { apiKeyAuth, appAuth } from "../../../workers/platform/auth/app-auth";
import type { AppEnv } from "../../../workers/platform/env";
import { ApiError, errorResponse } from "../../../workers/platform/http/errors";
import { requestId } from "../../../workers/platform/http/request-id";
import { readRateLimit, readRateLimitHeaders } from "../../../workers/accounts/reads/read-limit";

/**
 * A miniature Worker wired exactly like the open routes (appAuth → access → readRateLimit → handler), so the
 * auth, access and read-limit middlewares are tested in isolation from the route handlers.
 */
const app = new Hono<AppEnv>();
app.use("*", requestId);
app.onError((err, c) =>
  err instanceof ApiError ? errorResponse(c, err) : errorResponse(c, new ApiError(500, "internal_error", String(err))),
);

const open = new Hono<AppEnv>();
const who = (c: { get: (k: "caller") => AppEnv["Variables"]["caller"]; json: (b: unknown) => Response }) =>
  c.json({ appId: c.get("caller").appId, accountId: c.get("caller").account.id });
open.use("*", appAuth, requireOpenApiAccess);
open.get("/avatars", readRateLimit("avatar"), (c) => who(c));
open.get("/avatar-jobs", readRateLimit("avatar"), (c) => who(c));
open.post("/avatars", requireAvatarCreation, readRateLimitHeaders("avatar"), (c) => who(c));
open.get("/video-jobs", requireVideoAccess, readRateLimit("video"), (c) => who(c));
open.post("/videos", requireVideoAccess, requireVideoCreation, (c) => who(c));
app.route("/v1/open", open);
app.post("/v1/console/session-tokens", apiKeyAuth, (c) => who(c));

/** `probe("/v1/open/avatars", {headers})` through the miniature Worker with the test bindings. */
export const probe = (path: string, init: RequestInit = {}) => app.request(path, init, env);
