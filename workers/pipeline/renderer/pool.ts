import { inArray } from "drizzle-orm";
import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";
import { RESEND_AFTER_MS } from "../jobs/constants";
import { videoSegments } from "../../platform/db/schema";
import { db, isTerminal, sharedTable } from "../jobs/store";
import { runId, runMessage } from "../queue/messages";
import type { Grant, HeldJob, JobRef, RunRequest } from "./pool-jobs";
import type { PoolView } from "./pool-view";
import { rendererPoolConfig } from "./renderer-target";

const D1_IDS_PER_QUERY = 90;
/** Waiting renders the sweep checks against D1 per run (every lease is checked every run). */
const WAITING_CHECKED_PER_SWEEP = 450;

type PoolEnv = Pick<Env, "RENDERER_POOL" | "RENDERER_INSTANCES" | "RENDERER_ACCOUNT_SHARE" | "JOBS">;

const pool = (env: PoolEnv) => env.RENDERER_POOL.getByName("renderers");

/**
 * Renders that just got an instance are dispatched at once; a lost send is re-sent by the sweep (≤ 3 min).
 * The pool's `jobId` is a run's name (queue/messages.ts runId): a split render's runs hold leases of their own.
 */
async function sendGranted(env: PoolEnv, granted: JobRef[]) {
  if (!granted.length) return;
  try {
    await env.JOBS.sendBatch(granted.map(({ kind, jobId }) => ({ body: runMessage(kind, jobId) })));
  } catch (error) {
    logEvent("renderer_grant_send_failed", { jobs: granted.length, error }, "warn");
  }
}

/** An instance for this run, or its place in its account's line (the pool sends its message when granted). */
export async function acquireRenderer(env: PoolEnv, req: RunRequest, now: number): Promise<Grant> {
  const { result, granted } = await pool(env).acquire(req, rendererPoolConfig(env), now);
  await sendGranted(env, granted);
  return result;
}

/** The run ended or never started: its instance goes to the next waiting render. Never throws (the sweep corrects). */
export async function releaseRenderer(env: PoolEnv, jobIds: string[], now: number): Promise<void> {
  if (!jobIds.length) return;
  try {
    const { granted } = await pool(env).release(jobIds, rendererPoolConfig(env), now);
    await sendGranted(env, granted);
  } catch (error) {
    logEvent("renderer_release_failed", { jobIds, error }, "warn");
  }
}

/** What operators see of the pool (GET /v1/admin/renderer-pool). */
export async function viewRendererPool(env: PoolEnv, now: number): Promise<PoolView> {
  return pool(env).view(rendererPoolConfig(env), now);
}

/** Renders running and waiting in the whole pool (GET /health): the pool's counters, not its line. */
export async function rendererPoolLoad(env: PoolEnv): Promise<{ running: number; waiting: number }> {
  const { renders, waiting } = await pool(env).load();
  const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
  return { running: sum(renders), waiting: sum(Object.values(waiting)) };
}

/**
 * Sweep step, against D1: jobs the pool holds or queues that ended (or never existed) give their place back,
 * and a render granted an instance more than RESEND_AFTER_MS ago that is still queued (its grant message was
 * lost) is sent again. Every lease is checked each run, the line a page at a time.
 */
export async function reconcileRendererPool(env: PoolEnv & Pick<Env, "DB">, now: number): Promise<number> {
  const known = await pool(env).jobsToCheck(WAITING_CHECKED_PER_SWEEP);
  const gone: string[] = [];
  const lostGrants: JobRef[] = [];
  const isSplitRun = (j: HeldJob) => runMessage(j.kind, j.jobId).segment !== undefined;
  await checkSplitRuns(env, known.filter(isSplitRun), now, gone, lostGrants);
  for (const kind of ["avatar", "video"] as const) {
    const jobs = known.filter((j) => j.kind === kind && !isSplitRun(j));
    for (let i = 0; i < jobs.length; i += D1_IDS_PER_QUERY) {
      const chunk = jobs.slice(i, i + D1_IDS_PER_QUERY);
      const t = sharedTable(kind);
      const rows = await db(env)
        .select({ id: t.id, status: t.status })
        .from(t)
        .where(
          inArray(
            t.id,
            chunk.map((j) => j.jobId),
          ),
        )
        .all();
      const status = new Map(rows.map((r) => [r.id, r.status]));
      for (const job of chunk) {
        const s = status.get(job.jobId);
        if (s === undefined || isTerminal(s)) gone.push(job.jobId);
        else if (s === "queued" && grantLost(job, now)) lostGrants.push({ kind, jobId: job.jobId });
      }
    }
  }
  if (gone.length) await releaseRenderer(env, gone, now);
  if (lostGrants.length) {
    logEvent("renderer_grant_resent", { jobs: lostGrants.length }, "warn");
    await sendGranted(env, lostGrants);
  }
  return gone.length;
}

const grantLost = (job: HeldJob, now: number) => job.held && now - job.since > RESEND_AFTER_MS;

/** The same for a split render's runs, against their rows (a row is gone once its job ended). */
async function checkSplitRuns(env: Pick<Env, "DB">, runs: HeldJob[], now: number, gone: string[], lost: JobRef[]) {
  for (let i = 0; i < runs.length; i += D1_IDS_PER_QUERY) {
    const chunk = runs.slice(i, i + D1_IDS_PER_QUERY);
    const ids = [...new Set(chunk.map((r) => runMessage("video", r.jobId).jobId))];
    const rows = await db(env)
      .select({ jobId: videoSegments.jobId, idx: videoSegments.idx, status: videoSegments.status })
      .from(videoSegments)
      .where(inArray(videoSegments.jobId, ids))
      .all();
    const status = new Map(rows.map((r) => [runId({ jobId: r.jobId, segment: r.idx }), r.status]));
    for (const run of chunk) {
      const s = status.get(run.jobId);
      if (s === undefined || s === "done" || s === "pending") gone.push(run.jobId);
      else if (s === "queued" && grantLost(run, now)) lost.push({ kind: "video", jobId: run.jobId });
    }
  }
}
