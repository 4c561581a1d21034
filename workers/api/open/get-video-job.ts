import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess, requireVideoAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { videoJobs } from "../../platform/db/schema";
import { publicBaseUrl } from "../../platform/http/base-url";
import { notFound } from "../../platform/http/errors";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { Uuid } from "../resources/fields";
import { serializeVideoJob, VideoJobDetail } from "../resources/video-job";
import { videoDownloadLink } from "../../platform/storage/links";
import { alphaVideoKey } from "../../platform/storage/keys";

const route = createRoute({
  method: "get",
  path: "/video-jobs/{jobId}",
  operationId: "getVideoJob",
  tags: ["Videos"],
  summary: "Get a video job; succeeded and unexpired jobs include a fresh 15-minute download link",
  description:
    "Poll every 15 seconds. Download the link without the App headers. A job created with video.alpha also carries alphaVideoUrl (the WebM with alpha) under the same rules. If a link cannot be refreshed: 503, retry.",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, requireVideoAccess, readRateLimit("video")] as const,
  request: { params: z.strictObject({ jobId: Uuid }) },
  responses: {
    200: okJson("The job and, when available, its download link", VideoJobDetail, { readLimited: true }),
    ...errors(...READ_ERRORS, 404),
  },
});

/** GET /v1/open/video-jobs/{jobId}: any App of the owning account may read it; another account's job is simply not found. */
export const getVideoJobRoute = openApiApp().openapi(route, async (c) => {
  const { jobId } = c.req.valid("param");
  const { account } = c.get("caller");
  const job = await drizzle(c.env.DB)
    .select()
    .from(videoJobs)
    .where(and(eq(videoJobs.id, jobId), eq(videoJobs.accountId, account.id)))
    .get();
  if (!job) throw notFound(`Video job ${jobId} was not found`);
  const now = Date.now();
  const view = serializeVideoJob(job, now);
  if (view.status !== "succeeded") return c.json({ job: view }, 200);
  // Fresh 15-minute links capped by expiresAt; if one cannot be produced: 503, the job stays succeeded.
  const base = publicBaseUrl(c);
  const [link, alpha] = await Promise.all([
    videoDownloadLink(c.env, base, job, now),
    job.settings.alpha ? videoDownloadLink(c.env, base, job, now, alphaVideoKey(job.id)) : undefined,
  ]);
  const alphaLinks = alpha ? { alphaVideoUrl: alpha.url, alphaVideoUrlExpiresAt: alpha.expiresAt.toISOString() } : {};
  return c.json({ job: view, videoUrl: link.url, videoUrlExpiresAt: link.expiresAt.toISOString(), ...alphaLinks }, 200);
});
