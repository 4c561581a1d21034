import { createRoute } from "@hono/zod-openapi";
import { and, count, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { avatarJobs } from "../../platform/db/schema";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { afterPosition, finishPage, newestFirst } from "../pagination/keyset";
import { PaginationQuery, statusesParam } from "../pagination/page-params";
import { canonicalStatuses, pageRequest } from "../pagination/page-request";
import { AVATAR_JOB_STATUSES, AvatarJobList, serializeAvatarJob, type AvatarJobStatus } from "../resources/avatar-job";

export const ListAvatarJobsQuery = z.strictObject({
  statuses: statusesParam(AVATAR_JOB_STATUSES).optional(),
  ...PaginationQuery,
});

const route = createRoute({
  method: "get",
  path: "/avatar-jobs",
  operationId: "listAvatarJobs",
  tags: ["Avatars"],
  summary: "List Avatar creation jobs, newest first",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, readRateLimit("avatar")] as const,
  request: { query: ListAvatarJobsQuery },
  responses: { 200: okJson("One page of jobs", AvatarJobList, { readLimited: true }), ...errors(...READ_ERRORS) },
});

/** GET /v1/open/avatar-jobs */
export const listAvatarJobsRoute = openApiApp().openapi(route, async (c) => {
  const query = c.req.valid("query");
  const { account } = c.get("caller");
  const statuses = canonicalStatuses(query.statuses) as AvatarJobStatus[];
  const req = await pageRequest(c.env.SIGNING_SECRET, "avatar-jobs", account.id, query, statuses);
  const db = drizzle(c.env.DB);
  const matches = and(
    eq(avatarJobs.accountId, account.id),
    statuses.length ? inArray(avatarJobs.status, statuses) : undefined,
  );
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(avatarJobs)
      .where(and(matches, afterPosition(avatarJobs.createdAt, avatarJobs.id, req.after)))
      .orderBy(...newestFirst(avatarJobs.createdAt, avatarJobs.id))
      .limit(req.scope.pageSize + 1),
    db.select({ n: count() }).from(avatarJobs).where(matches),
  ]);
  const page = await finishPage(c.env.SIGNING_SECRET, req, rows, total?.n ?? 0);
  return c.json({ jobs: page.items.map(serializeAvatarJob), pagination: page.pagination }, 200);
});
