import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatars } from "../platform/db/schema";
import { meteredRefusal, refuseMeteredAddress } from "../platform/auth/failure-meter";
import { forbidden, notFound } from "../platform/http/errors";
import { publicBaseUrl } from "../platform/http/base-url";
import { errorResponses, motionApp } from "./openapi-app";
import { avatarKeys } from "../platform/storage/keys";
import { canSeeAvatarMedia } from "../accounts/public";
import { checkRigLink, RIG_FILES, signedRigUrl } from "./rig-links";

const route = createRoute({
  method: "get",
  path: "/avatars/{avatarId}/{file}",
  summary:
    "An Avatar's rig (JSON, with a signed portraitUrl, and matteUrl once the Avatar has a person matte), portrait or matte (PNG) for live clients; signed link from the ready message",
  request: {
    params: z.object({ avatarId: z.uuid(), file: z.enum(RIG_FILES) }),
    query: z.object({ acct: z.uuid(), exp: z.string().regex(/^\d{1,12}$/), sig: z.string().min(1) }),
  },
  responses: {
    200: { description: "The rig (application/json), the portrait or the matte (image/png)" },
    ...errorResponses({
      400: "invalid_request",
      403: "forbidden: bad or expired signature, or the account may no longer use the Avatar",
      404: "not_found: the Avatar is gone",
    }),
  },
});

// Signed capability links: readable from any origin (a client library draws the portrait into WebGL).
const CORS = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };

export const rigRoute = motionApp().openapi(route, async (c) => {
  refuseMeteredAddress(c);
  const { avatarId, file } = c.req.valid("param");
  const check = await checkRigLink(c.env, avatarId, file, c.req.valid("query"));
  if (!check.ok)
    throw check.expired
      ? forbidden("The rig link has expired: open a new connection for a fresh one.")
      : await meteredRefusal(c, forbidden("The rig link is invalid: its signature does not match."));
  const { accountId, remainingSeconds: remaining } = check;
  if (!(await canSeeAvatarMedia(c.env.DB, accountId, avatarId)))
    throw forbidden("The rig link no longer opens this Avatar: the account is inactive or lost access to it.");
  const avatar = await drizzle(c.env.DB).select().from(avatars).where(eq(avatars.id, avatarId)).get();
  const key = {
    "rig.json": avatar?.rigKey,
    "portrait.png": avatar?.portraitKey,
    "matte.png": avatarKeys(avatarId).matte,
  }[file];
  const object = avatar && key && (await c.env.MEDIA.get(key));
  if (!object)
    throw notFound(
      file === "matte.png" && avatar
        ? `Avatar ${avatarId} has no matte yet.`
        : `Avatar ${avatarId} is no longer available.`,
    );
  const headers = { ...CORS, "Cache-Control": `private, max-age=${remaining}` };
  if (file !== "rig.json") return c.body(object.body, 200, { ...headers, "Content-Type": "image/png" });
  const rig = (await object.json()) as Record<string, unknown>;
  const base = publicBaseUrl(c);
  // The matte (a transparent canvas needs it) exists once the Avatar was made with one or a video made it.
  const [portraitUrl, matteUrl] = await Promise.all([
    signedRigUrl(c.env, base, avatarId, "portrait.png", accountId),
    c.env.MEDIA.head(avatarKeys(avatarId).matte).then((head) =>
      head ? signedRigUrl(c.env, base, avatarId, "matte.png", accountId) : undefined,
    ),
  ]);
  return c.json({ ...rig, portraitUrl, ...(matteUrl ? { matteUrl } : {}) }, 200, headers);
});
