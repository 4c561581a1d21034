import { createRoute } from "@hono/zod-openapi";
import { and, count, eq, gt, inArray, lte, or, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess, requireVideoAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { videoJobs } from "../../platform/db/schema";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { afterPosition, finishPage, newestFirst } from "../pagination/keyset";
import { PaginationQuery, statusesParam } from "../pagination/page-params";
import { canonicalStatuses, pageRequest } from "../pagination/page-request";
import { serializeVideoJob, VIDEO_JOB_STATUSES, VideoJobList, type VideoJobStatus } from "../resources/video-job";

export const ListVideoJobsQuery = z.strictObject({
  statuses: statusesParam(VIDEO_JOB_STATUSES).optional(),
  ...PaginationQuery,
});

const route = createRoute({
  method: "get",
  path: "/video-jobs",
  operationId: "listVideoJobs",
  tags: ["Videos"],
  summary: "List video jobs, newest first (summaries without download links)",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, requireVideoAccess, readRateLimit("video")] as const,
  request: { query: ListVideoJobsQuery },
  responses: { 200: okJson("One page of jobs", VideoJobList, { readLimited: true }), ...errors(...READ_ERRORS) },
});

/**
 * SQL for one status as readers see it (resources/video-job.ts: a job past its retention deadline reads
 * as expired even before the sweep marks it), so the filter agrees with what the list shows.
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

/** GET /v1/open/video-jobs */
export const listVideoJobsRoute = openApiApp().openapi(route, async (c) => {
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
});
