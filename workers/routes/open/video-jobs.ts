import { and, count, eq, gt, inArray, lte, or, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { requireOpenApiAccess, requireVideoAccess } from "../../auth/access";
import { appAuth } from "../../auth/app-auth";
import { videoJobs } from "../../db/schema";
import type { AppEnv } from "../../env";
import { publicBaseUrl } from "../../http/base-url";
import { notFound } from "../../http/errors";
import { validate } from "../../http/validation";
import { readRateLimit } from "../../limiter/read-limit";
import { operations as ops, honoPath } from "../../openapi/contract";
import { afterPosition, finishPage, newestFirst } from "../../pagination/keyset";
import { canonicalStatuses, pageRequest } from "../../pagination/page-request";
import type { VideoJobStatus } from "../../schemas/jobs";
import { serializeVideoJob } from "../../serializers/video-job";
import { videoDownloadLink } from "../../storage/links";

const MOUNT = "/v1/open";

/**
 * SQL for one status as readers see it (serializers/video-job.ts: a job past its retention deadline
 * reads as expired even before the sweep marks it), so the filter agrees with what the list shows.
 */
function statusMatches(status: VideoJobStatus, now: Date): SQL | undefined {
  switch (status) {
    case "failed":
      return eq(videoJobs.status, "failed");
    case "expired":
      return or(
        eq(videoJobs.status, "expired"),
        and(inArray(videoJobs.status, ["queued", "processing", "succeeded"]), lte(videoJobs.expiresAt, now)),
      );
    default:
      return and(eq(videoJobs.status, status), gt(videoJobs.expiresAt, now));
  }
}

export const videoJobRoutes = new Hono<AppEnv>()
  .get(
    honoPath(ops.listVideoJobs, MOUNT),
    appAuth,
    requireOpenApiAccess,
    requireVideoAccess,
    readRateLimit("video"),
    validate("query", ops.listVideoJobs.query),
    async (c) => {
      const query = c.req.valid("query");
      const { account } = c.get("caller");
      const statuses = canonicalStatuses(query.statuses) as VideoJobStatus[];
      const req = await pageRequest(c.env.SIGNING_SECRET, "video-jobs", account.id, query, statuses);
      const now = Date.now();
      const db = drizzle(c.env.DB);
      const matches = and(
        eq(videoJobs.accountId, account.id),
        statuses.length ? or(...statuses.map((s) => statusMatches(s, new Date(now)))) : undefined,
      );
      const [rows, [total]] = await db.batch([
        db
          .select()
          .from(videoJobs)
          .where(and(matches, afterPosition(videoJobs.createdAt, videoJobs.id, req.after)))
          .orderBy(...newestFirst(videoJobs.createdAt, videoJobs.id))
          .limit(req.scope.pageSize + 1),
        db.select({ n: count() }).from(videoJobs).where(matches),
      ]);
      const page = await finishPage(c.env.SIGNING_SECRET, req, rows, total?.n ?? 0);
      // Summaries only: download links are produced by the detail read.
      return c.json({ jobs: page.items.map((j) => serializeVideoJob(j, now)), pagination: page.pagination }, 200);
    },
  )
  .get(
    honoPath(ops.getVideoJob, MOUNT),
    appAuth,
    requireOpenApiAccess,
    requireVideoAccess,
    readRateLimit("video"),
    validate("param", ops.getVideoJob.params),
    async (c) => {
      const { jobId } = c.req.valid("param");
      const { account } = c.get("caller");
      const job = await drizzle(c.env.DB)
        .select()
        .from(videoJobs)
        .where(and(eq(videoJobs.id, jobId), eq(videoJobs.accountId, account.id)))
        .get();
      // Any App of the owning account may read it; another account's job is simply not found.
      if (!job) throw notFound(`Video job ${jobId} was not found`);
      const now = Date.now();
      const view = serializeVideoJob(job, now);
      if (view.status !== "succeeded") return c.json({ job: view }, 200);
      // A fresh 15-minute link capped by expiresAt; if it cannot be produced: 503, the job stays succeeded.
      const link = await videoDownloadLink(c.env, publicBaseUrl(c), job, now);
      return c.json({ job: view, videoUrl: link.url, videoUrlExpiresAt: link.expiresAt.toISOString() }, 200);
    },
  );
