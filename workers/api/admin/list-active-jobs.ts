import { createRoute, z } from "@hono/zod-openapi";
import { asc, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, videoJobs } from "../../platform/db/schema";
import { openApiApp } from "../../platform/http/openapi-app";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { WAITING_FOR_RENDERER, staleHeartbeatMs } from "../../pipeline/public";

const ActiveJob = z.object({
  kind: z.enum(["avatar", "video"]),
  id: z.string(),
  accountId: z.string(),
  status: z.enum(["queued", "processing"]),
  /**
   * Video: progress.stage (e.g. waiting_for_renderer). Avatar jobs store no stage: derived — handed back by a
   * busy/unreachable renderer, or a run gone silent past the stall threshold → waiting_for_renderer; else the status.
   */
  stage: z.string(),
  attempt: z.number().int(),
  createdAt: z.string(),
  ageSeconds: z.number().int(),
  heartbeatAt: z.string().nullable(),
  heartbeatAgeSeconds: z.number().int().nullable(),
  enqueuedAt: z.string().nullable(),
});

const route = createRoute({
  method: "get",
  path: "/jobs/active",
  operationId: "adminListActiveJobs",
  tags: ADMIN_TAG,
  security: ADMIN_AUTH,
  summary: "Non-terminal jobs (queued or processing) of every account, oldest first",
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }) },
  responses: {
    200: {
      description: "Up to `limit` jobs of each kind, with age, attempt, stage and last heartbeat",
      content: { "application/json": { schema: z.object({ now: z.string(), jobs: z.array(ActiveJob) }) } },
    },
    ...ADMIN_ERRORS,
  },
});

type Row = Pick<
  typeof avatarJobs.$inferSelect,
  "id" | "accountId" | "status" | "attempt" | "createdAt" | "updatedAt" | "heartbeatAt" | "enqueuedAt"
> & {
  stage?: string;
};
const columns = (t: typeof avatarJobs | typeof videoJobs) => ({
  id: t.id,
  accountId: t.accountId,
  status: t.status,
  attempt: t.attempt,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  heartbeatAt: t.heartbeatAt,
  enqueuedAt: t.enqueuedAt,
});
const ACTIVE = ["queued", "processing"] as const;
const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

/** An Avatar job's visible stage (its table has no stage column: the video stage names, derived). */
function avatarStage(row: Row, now: number, staleMs: number): string {
  const handedBack = row.status === "queued" && row.updatedAt.getTime() > row.createdAt.getTime(); // releaseClaim
  const silent = row.status === "processing" && row.heartbeatAt !== null && now - row.heartbeatAt.getTime() > staleMs;
  return handedBack || silent ? WAITING_FOR_RENDERER : row.status;
}

function view(kind: "avatar" | "video", row: Row, now: number, staleMs: number): z.infer<typeof ActiveJob> {
  return {
    kind,
    id: row.id,
    accountId: row.accountId,
    status: row.status as (typeof ACTIVE)[number],
    stage: row.stage ?? avatarStage(row, now, staleMs),
    attempt: row.attempt,
    createdAt: row.createdAt.toISOString(),
    ageSeconds: seconds(now - row.createdAt.getTime()),
    heartbeatAt: row.heartbeatAt?.toISOString() ?? null,
    heartbeatAgeSeconds: row.heartbeatAt ? seconds(now - row.heartbeatAt.getTime()) : null,
    enqueuedAt: row.enqueuedAt?.toISOString() ?? null,
  };
}

/** GET /v1/admin/jobs/active (mounted inside adminRoutes: admin token required). `npm run admin -- jobs --active`. */
export const listActiveJobsRoute = openApiApp().openapi(route, async (c) => {
  const { limit } = c.req.valid("query");
  const db = drizzle(c.env.DB);
  const [avatars, videos] = await Promise.all([
    db
      .select(columns(avatarJobs))
      .from(avatarJobs)
      .where(inArray(avatarJobs.status, [...ACTIVE]))
      .orderBy(asc(avatarJobs.createdAt))
      .limit(limit)
      .all(),
    db
      .select({ ...columns(videoJobs), stage: videoJobs.stage })
      .from(videoJobs)
      .where(inArray(videoJobs.status, [...ACTIVE]))
      .orderBy(asc(videoJobs.createdAt))
      .limit(limit)
      .all(),
  ]);
  const now = Date.now();
  const staleMs = staleHeartbeatMs(c.env);
  const jobs = [
    ...avatars.map((r) => view("avatar", r, now, staleMs)),
    ...videos.map((r) => view("video", r, now, staleMs)),
  ];
  jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return c.json({ now: new Date(now).toISOString(), jobs }, 200);
});
