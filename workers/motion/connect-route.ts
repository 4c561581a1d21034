import { createRoute, z } from "@hono/zod-openapi";
import { apiError } from "../platform/http/errors";
import { publicBaseUrl } from "../platform/http/base-url";
import { admitConnection } from "./admission";
import { errorResponses, motionApp } from "./openapi-app";
import { SETUP_HEADER } from "./session-setup";

const route = createRoute({
  method: "get",
  path: "/",
  summary: "Open a live motion connection (WebSocket, protocol motion.v1; see docs/motion.md)",
  request: {
    query: z.object({
      token: z
        .string()
        .optional()
        .meta({ description: "Session token; or offer the subprotocol token.<sessionToken> next to motion.v1" }),
      // Checked by the handler, after the token (a caller learns nothing about Avatars without one).
      avatarId: z.string().optional().meta({ description: "The Avatar to animate (UUID, required)" }),
    }),
  },
  responses: {
    101: { description: "Switching Protocols: the connection is open (subprotocol motion.v1 echoed when offered)" },
    ...errorResponses({
      400: "invalid_request: avatarId, subprotocol or unknown modelVersion",
      401: "unauthorized: token missing, malformed, forged, expired, already used, of another region, or its App revoked",
      403: "forbidden: account inactive or without API access",
      404: "not_found: Avatar missing, not ready or another account's",
      426: "invalid_request: not a WebSocket upgrade",
      429: "rate_limit_exceeded: the account's concurrent connections are at the limit",
    }),
  },
});

/** GET /v1/motion: every refusal is an HTTP answer before the upgrade; an admitted connection goes to its own object. */
export const connectRoute = motionApp().openapi(route, async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw apiError(
      "invalid_request",
      "GET /v1/motion opens a WebSocket: send Upgrade: websocket (protocol motion.v1).",
      { headers: { Upgrade: "websocket" }, status: 426 },
    );
  }
  const setup = await admitConnection(c.env, c.req.raw, publicBaseUrl(c));
  // A new object per connection, created where this request arrived: next to the client.
  const stub = c.env.MOTION_SESSION.get(c.env.MOTION_SESSION.newUniqueId());
  const headers = new Headers(c.req.raw.headers);
  headers.set(SETUP_HEADER, JSON.stringify(setup));
  try {
    const upgraded = await stub.fetch(new Request(c.req.raw.url, { method: "GET", headers }));
    // Re-wrapped: the object's 101 has immutable headers, and middleware adds X-Request-ID.
    return new Response(upgraded.body, {
      status: upgraded.status,
      headers: new Headers(upgraded.headers),
      webSocket: upgraded.webSocket,
    });
  } catch (err) {
    // The slot was taken for a connection that never opened: give it back.
    c.executionCtx.waitUntil(c.env.ACCOUNT_LIMITER.getByName(setup.accountId).endMotionConnection(setup.connectionId));
    throw err;
  }
});
