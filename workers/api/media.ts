import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { videoJobs } from "../platform/db/schema";
import type { AppEnv } from "../platform/env";
import { forbidden, notFound } from "../platform/http/errors";
import { isOutputAvailable, verifyAvatarMediaSignature, verifyVideoLinkSignature } from "../platform/storage/links";
import { serveObject } from "../platform/storage/serve";
import { alphaVideoKey, videoKey } from "../platform/storage/keys";

/**
 * Signed media, fetched without App headers (spec: "Download it without the App authentication headers").
 * The signature is the credential; nothing here trusts the caller otherwise.
 */
export const mediaRoutes = new Hono<AppEnv>();

const invalidLink = () =>
  forbidden("The download link is invalid: its signature does not match. Request a fresh link.");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** GET /v1/media/videos/{jobId}.mp4|.webm?exp=<epoch s>&sig=… — a video (or alpha video) link from GET /video-jobs/{jobId}. */
mediaRoutes.get("/videos/:file", async (c) => {
  const [, jobId = "", ext] = /^(.+)\.(mp4|webm)$/.exec(c.req.param("file")) ?? [];
  const exp = c.req.query("exp") ?? "";
  const sig = c.req.query("sig");
  if (!UUID.test(jobId) || !/^\d{1,12}$/.test(exp) || !sig) throw invalidLink();
  const job = await drizzle(c.env.DB).select().from(videoJobs).where(eq(videoJobs.id, jobId)).get();
  const key = ext === "webm" ? alphaVideoKey(jobId) : videoKey(jobId);
  if (!job || !(await verifyVideoLinkSignature(c.env, key, job.accountId, Number(exp), sig))) throw invalidLink();
  const now = Date.now();
  const remaining = Number(exp) - Math.floor(now / 1000);
  if (remaining <= 0) throw forbidden("The download link has expired. Read the job again for a fresh link.");
  if (!isOutputAvailable(job, now) || (ext === "webm" ? !job.settings.alpha : job.outputKey !== key)) {
    throw notFound("The video is no longer available: its retention period is over.");
  }
  return serveObject(c, key, {
    contentType: ext === "webm" ? "video/webm" : "video/mp4",
    cacheControl: `private, max-age=${remaining}`,
    disposition: `inline; filename="${jobId}.${ext}"`,
    notFoundMessage: "The video is not available right now. Read the job again for a fresh link.",
  });
});

/** GET /v1/media/avatars/{avatarId}/{file}?sig=… — cover and background images (long-lived signature, no expiry). */
mediaRoutes.get("/avatars/:avatarId/:file", async (c) => {
  const { avatarId, file } = c.req.param();
  const key = `avatars/${avatarId}/${file}`;
  if (
    !UUID.test(avatarId) ||
    !/^[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(file) ||
    !(await verifyAvatarMediaSignature(c.env, key, c.req.query("sig")))
  ) {
    throw forbidden("The image link is invalid: its signature does not match.");
  }
  return serveObject(c, key, { cacheControl: "private, max-age=3600", notFoundMessage: "The image does not exist." });
});
