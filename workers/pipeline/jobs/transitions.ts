import { and, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { avatarJobs, type videoJobs, type AvatarJob, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { STALE_HEARTBEAT_MS, WAITING_FOR_RENDERER } from "./constants";
import { explain, type JobError } from "./failures";
import { db, sharedTable, type AnyJob } from "./store";
import { endSplitRuns } from "./segments";
import { finishAvatarSlot } from "./units";
import type { JobKind } from "./tokens";
import { deleteFailedJobOutputs } from "./outputs";
import { logEvent } from "../../platform/logging/log-event";

// Every transition is one conditional UPDATE (compare-and-set on status + attempt): concurrent deliveries,
// replayed events and the sweep can race freely, exactly one of them wins each step.

type SharedSet = Partial<typeof avatarJobs.$inferInsert>;

async function compareAndSet(
  env: Pick<Env, "DB">,
  kind: JobKind,
  set: SharedSet,
  videoSet: Partial<typeof videoJobs.$inferInsert>,
  where: (t: typeof avatarJobs) => SQL | undefined,
): Promise<boolean> {
  const t = sharedTable(kind);
  const values = kind === "video" ? { ...set, ...(videoSet as object) } : set;
  const rows = await db(env).update(t).set(values).where(where(t)).returning({ id: t.id });
  return rows.length > 0;
}

export const heartbeatStale = (t: typeof avatarJobs, now: number, staleMs = STALE_HEARTBEAT_MS) =>
  or(isNull(t.heartbeatAt), lt(t.heartbeatAt, new Date(now - staleMs)));

/** May this job be dispatched now? queued, or processing whose renderer went silent (a redelivery). */
export function dispatchable(job: AvatarJob | VideoJob, now: number, staleMs = STALE_HEARTBEAT_MS): boolean {
  if (job.status === "queued") return true;
  return job.status === "processing" && (!job.heartbeatAt || job.heartbeatAt.getTime() < now - staleMs);
}

/**
 * queued (or stalled processing) → processing, attempt + 1, heartbeat now. Returns the new attempt, or null
 * when another delivery or the sweep changed the job first (then nothing is dispatched twice).
 */
export async function claimForDispatch(
  env: Pick<Env, "DB">,
  { kind, job }: AnyJob,
  now: number,
  staleMs = STALE_HEARTBEAT_MS,
): Promise<number | null> {
  const attempt = job.attempt + 1;
  const won = await compareAndSet(
    env,
    kind,
    { status: "processing", attempt, heartbeatAt: new Date(now), updatedAt: new Date(now) },
    { stage: "starting" },
    (t) =>
      and(
        eq(t.id, job.id),
        eq(t.attempt, job.attempt),
        job.status === "queued"
          ? eq(t.status, "queued")
          : and(eq(t.status, "processing"), heartbeatStale(t, now, staleMs)),
      ),
  );
  return won ? attempt : null;
}

/**
 * The renderer could not take the job (busy, restarting, unreachable): back to queued for the queue's
 * retry, video stage `waiting_for_renderer` so the caller sees why. The attempt number is given back so it
 * keeps counting runs the renderer accepted (MAX_ATTEMPTS applies to stalls, not to outages).
 */
export async function releaseClaim(
  env: Pick<Env, "DB">,
  kind: JobKind,
  jobId: string,
  attempt: number,
  now: number,
): Promise<boolean> {
  return compareAndSet(
    env,
    kind,
    { status: "queued", attempt: attempt - 1, heartbeatAt: null, updatedAt: new Date(now), enqueuedAt: new Date(now) },
    { stage: WAITING_FOR_RENDERER },
    (t) => and(eq(t.id, jobId), eq(t.status, "processing"), eq(t.attempt, attempt)),
  );
}

/** A render waits for a free renderer instance (the pool's line): the caller sees `waiting_for_renderer`. */
export async function markWaiting(env: Pick<Env, "DB">, job: VideoJob, now: number): Promise<void> {
  if (job.status !== "queued" || job.stage === WAITING_FOR_RENDERER) return;
  await compareAndSet(env, "video", { updatedAt: new Date(now) }, { stage: WAITING_FOR_RENDERER }, (t) =>
    and(eq(t.id, job.id), eq(t.status, "queued")),
  );
}

/** A sign of life from the current run; a new stage (video) is a visible change and bumps updatedAt. */
export async function recordProgress(
  env: Pick<Env, "DB">,
  { kind, job }: AnyJob,
  stage: string,
  now: number,
): Promise<boolean> {
  const changed = kind === "video" && job.stage !== stage;
  return compareAndSet(
    env,
    kind,
    { heartbeatAt: new Date(now), ...(changed ? { updatedAt: new Date(now) } : {}) },
    changed ? { stage } : {},
    (t) => and(eq(t.id, job.id), eq(t.status, "processing"), eq(t.attempt, job.attempt)),
  );
}

/**
 * → failed with the error, completedAt now. `from` lists the statuses the job may fail from and the
 * attempt pins the run. Avatar: a unit still reserved is released (D1 first, then the limiter), the
 * concurrency slot is freed; a captured unit stays captured. Video: a split render's runs end too.
 */
export async function failJob(
  env: Env,
  { kind, job }: AnyJob,
  error: JobError,
  now: number,
  from: ("queued" | "processing")[] = ["queued", "processing"],
): Promise<boolean> {
  const e = explain(kind, error); // every stored failure says why (reason, detail)
  const base = {
    status: "failed" as const,
    errorCode: e.code,
    errorMessage: e.message,
    errorRetryable: e.retryable,
    errorReason: e.reason ?? null,
    errorDetail: e.detail ?? null,
    heartbeatAt: null,
    updatedAt: new Date(now),
    completedAt: new Date(now),
  };
  const where = (t: typeof avatarJobs) => and(eq(t.id, job.id), eq(t.attempt, job.attempt), inArray(t.status, from));
  if (kind === "avatar") {
    const rows = await db(env)
      .update(avatarJobs)
      .set({
        ...base,
        unitState: sql`case when ${avatarJobs.unitState} = 'reserved' then 'released' else ${avatarJobs.unitState} end`,
      })
      .where(where(avatarJobs))
      .returning({ id: avatarJobs.id });
    if (rows.length) await finishAvatarSlot(env, job);
    if (rows.length) await discardOutputs(env, kind, job.id);
    return rows.length > 0;
  }
  const failed = await compareAndSet(env, kind, base, {}, where);
  if (failed) await discardOutputs(env, kind, job.id);
  // A split render's runs all end with it (a row the job was loaded without is the sweep's to end).
  if (failed && job.segments !== null) await endSplitRuns(env, job.id);
  return failed;
}

/** A failed job keeps nothing its runs wrote; the sweep repeats this for recent failures (late uploads). */
async function discardOutputs(env: Env, kind: JobKind, jobId: string): Promise<void> {
  await deleteFailedJobOutputs(env, kind, jobId).catch((error: unknown) =>
    logEvent("failed_outputs_delete_failed", { kind, jobId, error }, "warn"),
  );
}

/** Video output stored: → succeeded, stage completed. */
export async function succeedVideo(
  env: Pick<Env, "DB">,
  job: VideoJob,
  outputKey: string,
  now: number,
): Promise<boolean> {
  return compareAndSet(
    env,
    "video",
    { status: "succeeded", heartbeatAt: null, updatedAt: new Date(now), completedAt: new Date(now) },
    { stage: "completed", outputKey },
    (t) => and(eq(t.id, job.id), eq(t.status, "processing"), eq(t.attempt, job.attempt)),
  );
}

/** Retention over (or never resolved within seven days): → expired, no output. The stage is kept as history. */
export async function expireVideo(env: Pick<Env, "DB">, job: VideoJob, now: number): Promise<boolean> {
  return compareAndSet(
    env,
    "video",
    { status: "expired", heartbeatAt: null, updatedAt: new Date(now) },
    { outputKey: null },
    (t) => and(eq(t.id, job.id), eq(t.status, job.status)),
  );
}
