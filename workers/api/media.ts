import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { type Context, Hono } from "hono";
import { canSeeAvatarMedia } from "../accounts/public";
import { videoJobs } from "../platform/db/schema";
import type { AppEnv } from "../platform/env";
import { meteredRefusal, refuseMeteredAddress } from "../platform/auth/failure-meter";
import { forbidden, notFound } from "../platform/http/errors";
import { isIssuedUuid } from "../platform/http/uuid";
import { checkAvatarMediaLink, checkVideoLink, isOutputAvailable, type LinkCheck } from "../platform/storage/links";
import { serveObject } from "../platform/storage/serve";
import { alphaVideoKey, videoKey } from "../platform/storage/keys";

/**
 * Signed media, fetched without App headers (spec: "Download it without the App authentication headers").
 * The link is the credential: its signature and expiry are checked before any storage or D1 read, then
 * that the account it was issued to may still see the file.
 */
export const mediaRoutes = new Hono<AppEnv>();

/** 403 for a link that is not ours (metered per address) or has expired; nothing has been read yet. */
async function linkRefusal(c: Context<AppEnv>, check: Exclude<LinkCheck, { ok: true }>, what: "download" | "image") {
  if (check.expired)
    return forbidden(
      what === "download"
        ? "The download link has expired. Read the job again for a fresh link."
        : "The image link has expired. Read the Avatar again for a fresh link.",
    );
  return meteredRefusal(
    c,
    forbidden(`The ${what} link is invalid: its signature does not match. Request a fresh link.`),
  );
}

/** GET /v1/media/videos/{jobId}.mp4|.webm?acct&exp&sig — a video (or alpha video) link from GET /video-jobs/{jobId}. */
mediaRoutes.get("/videos/:file", async (c) => {
  refuseMeteredAddress(c);
  const [, jobId = "", ext] = /^(.+)\.(mp4|webm)$/.exec(c.req.param("file")) ?? [];
  const key = ext === "webm" ? alphaVideoKey(jobId) : videoKey(jobId);
  const check = isIssuedUuid(jobId)
    ? await checkVideoLink(c.env, key, c.req.query())
    : ({ ok: false, expired: false } as const);
  if (!check.ok) throw await linkRefusal(c, check, "download");
  const job = await drizzle(c.env.DB).select().from(videoJobs).where(eq(videoJobs.id, jobId)).get();
  if (!job || job.accountId !== check.accountId) throw await linkRefusal(c, { ok: false, expired: false }, "download");
  if (!isOutputAvailable(job, Date.now()) || (ext === "webm" ? !job.settings.alpha : job.outputKey !== key)) {
    throw notFound("The video is no longer available: its retention period is over.");
  }
  return serveObject(c, key, {
    contentType: ext === "webm" ? "video/webm" : "video/mp4",
    cacheControl: `private, max-age=${check.remainingSeconds}`,
    disposition: `inline; filename="${jobId}.${ext}"`,
    notFoundMessage: "The video is not available right now. Read the job again for a fresh link.",
  });
});

/**
 * GET /v1/media/avatars/{avatarId}/{file}?acct&exp&sig — cover, background, portrait and matte images, for the
 * account named in the link while it is active and may use the Avatar.
 */
mediaRoutes.get("/avatars/:avatarId/:file", async (c) => {
  refuseMeteredAddress(c);
  const { avatarId, file } = c.req.param();
  const key = `avatars/${avatarId}/${file}`;
  const wellFormed = isIssuedUuid(avatarId) && /^[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(file);
  const check = wellFormed
    ? await checkAvatarMediaLink(c.env, key, c.req.query())
    : ({ ok: false, expired: false } as const);
  if (!check.ok) throw await linkRefusal(c, check, "image");
  if (!(await canSeeAvatarMedia(c.env.DB, check.accountId, avatarId)))
    throw forbidden("The image link no longer opens this Avatar: the account is inactive or lost access to it.");
  return serveObject(c, key, {
    cacheControl: `private, max-age=${Math.min(3600, check.remainingSeconds)}`,
    notFoundMessage: "The image does not exist.",
  });
});
