import { createRoute, z } from "@hono/zod-openapi";
import { requireOpenApiAccess } from "../platform/auth/access";
import { appAuth } from "../platform/auth/app-auth";
import { publicBaseUrl } from "../platform/http/base-url";
import { limitBody } from "../platform/http/body-limit";
import { readRateLimit } from "../accounts/public";
import { liveSession } from "./live-session";
import { errorResponses, motionApp } from "./openapi-app";

const route = createRoute({
  method: "post",
  path: "/session",
  summary:
    "Demo page: mint a one-connection session token server-side from an App ID + API key, and list the account's Avatars",
  // As /v1/open: the account needs Open API access, and listing its Avatars is an Avatar read (read limits).
  middleware: [appAuth, requireOpenApiAccess, readRateLimit("avatar"), limitBody] as const,
  responses: {
    200: {
      description: "A fresh session token (60 s) and the account's Avatars (newest first, at most 50)",
      content: {
        "application/json": {
          schema: z.object({
            sessionToken: z.string(),
            expireAt: z.number().int(),
            avatars: z.array(z.object({ id: z.string(), name: z.string(), coverUrl: z.string() })),
          }),
        },
      },
    },
    ...errorResponses({
      401: "unauthorized",
      403: "forbidden: no Open API access",
      429: "rate_limit_exceeded: Avatar read limit (Retry-After)",
    }),
  },
});

/** POST /console/live/session (X-App-ID + X-API-Key, like /v1/open): the key stays on the server side of the page. */
export const liveSessionRoute = motionApp().openapi(route, async (c) => {
  const { appId, account } = c.get("caller");
  return c.json(await liveSession(c.env, publicBaseUrl(c), appId, account.id), 200);
});
