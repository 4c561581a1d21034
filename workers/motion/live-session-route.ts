import { createRoute, z } from "@hono/zod-openapi";
import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { requireOpenApiAccess } from "../platform/auth/access";
import { appAuth } from "../platform/auth/app-auth";
import { avatars } from "../platform/db/schema";
import { publicBaseUrl } from "../platform/http/base-url";
import { limitBody } from "../platform/http/body-limit";
import { readRateLimit } from "../accounts/public";
import { issueSessionToken } from "../platform/session-token/issue";
import { workerConfig } from "../platform/config";
import { avatarCoverUrl } from "../platform/storage/links";
import { errorResponses, motionApp } from "./openapi-app";

/** Tokens minted for the demo page live one minute: enough to open the one connection they are for. */
const DEMO_TOKEN_SECONDS = 60;

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
  const now = Date.now();
  const expireAt = Math.floor(now / 1000) + DEMO_TOKEN_SECONDS;
  const sessionToken = await issueSessionToken(c.env.SESSION_TOKEN_PRIVATE_KEY, {
    appId,
    accountId: account.id,
    region: workerConfig(c.env).REGION,
    expireAt,
    now,
  });
  const rows = await drizzle(c.env.DB)
    .select()
    .from(avatars)
    .where(eq(avatars.accountId, account.id))
    .orderBy(desc(avatars.createdAt))
    .limit(50)
    .all();
  const base = publicBaseUrl(c);
  return c.json(
    {
      sessionToken,
      expireAt,
      avatars: rows.map((a) => ({
        id: a.id,
        name: a.name,
        coverUrl: avatarCoverUrl(c.env, base, a, { accountId: account.id, use: "preview" }),
      })),
    },
    200,
  );
});
