import { and, count, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { requireOpenApiAccess } from "../../auth/access";
import { appAuth } from "../../auth/app-auth";
import { avatarJobs } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { validate } from "../../http/validation";
import { readRateLimit } from "../../limiter/read-limit";
import { operations as ops, honoPath } from "../../openapi/contract";
import { afterPosition, finishPage, newestFirst } from "../../pagination/keyset";
import { canonicalStatuses, pageRequest } from "../../pagination/page-request";
import type { AvatarJobStatus } from "../../schemas/jobs";
import { serializeAvatarJob } from "../../serializers/avatar-job";

const MOUNT = "/v1/open";

export const avatarJobRoutes = new Hono<AppEnv>()
  .get(
    honoPath(ops.listAvatarJobs, MOUNT),
    appAuth,
    requireOpenApiAccess,
    readRateLimit("avatar"),
    validate("query", ops.listAvatarJobs.query),
    async (c) => {
      const query = c.req.valid("query");
      const { account } = c.get("caller");
      const statuses = canonicalStatuses(query.statuses) as AvatarJobStatus[];
      const req = await pageRequest(c.env.SIGNING_SECRET, "avatar-jobs", account.id, query, statuses);
      const db = drizzle(c.env.DB);
      const matches = and(eq(avatarJobs.accountId, account.id), statuses.length ? inArray(avatarJobs.status, statuses) : undefined);
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
    },
  )
  .get(
    honoPath(ops.getAvatarJob, MOUNT),
    appAuth,
    requireOpenApiAccess,
    readRateLimit("avatar"),
    validate("param", ops.getAvatarJob.params),
    async (c) => {
      const { jobId } = c.req.valid("param");
      const { account } = c.get("caller");
      const job = await drizzle(c.env.DB)
        .select()
        .from(avatarJobs)
        .where(and(eq(avatarJobs.id, jobId), eq(avatarJobs.accountId, account.id)))
        .get();
      if (!job) throw notFound(`Avatar creation job ${jobId} was not found`);
      return c.json({ job: serializeAvatarJob(job) }, 200);
    },
  );
