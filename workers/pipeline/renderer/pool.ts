import { inArray } from "drizzle-orm";
import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";
import { db, isTerminal, sharedTable } from "../jobs/store";
import type { Grant, JobRef, RunRequest } from "./pool-state";
import { rendererInstances } from "./renderer-target";

const D1_IDS_PER_QUERY = 90;

type PoolEnv = Pick<Env, "RENDERER_POOL" | "RENDERER_INSTANCES" | "JOBS">;

const pool = (env: PoolEnv) => env.RENDERER_POOL.getByName("renderers");

/** Renders that just got an instance are dispatched at once; a lost send is re-sent by the sweep (≤ 2 min). */
async function sendGranted(env: PoolEnv, granted: JobRef[]) {
  if (!granted.length) return;
  try {
    await env.JOBS.sendBatch(granted.map(({ kind, jobId }) => ({ body: { kind, jobId } })));
  } catch (error) {
    logEvent("renderer_grant_send_failed", { jobs: granted.length, error }, "warn");
  }
}

/** An instance for this run, or its place in its account's line (the pool sends its message when granted). */
export async function acquireRenderer(env: PoolEnv, req: RunRequest, now: number): Promise<Grant> {
  const { result, granted } = await pool(env).acquire(req, rendererInstances(env), now);
  await sendGranted(env, granted);
  return result;
}

/** The run ended or never started: its instance goes to the next waiting render. Never throws (the sweep corrects). */
export async function releaseRenderer(env: PoolEnv, jobIds: string[], now: number): Promise<void> {
  if (!jobIds.length) return;
  try {
    const { granted } = await pool(env).release(jobIds, now);
    await sendGranted(env, granted);
  } catch (error) {
    logEvent("renderer_release_failed", { jobIds, error }, "warn");
  }
}

/** Sweep step: jobs the pool holds or queues that D1 says ended (or never existed) give their place back. */
export async function reconcileRendererPool(env: PoolEnv & Pick<Env, "DB">, now: number): Promise<number> {
  const known = await pool(env).jobs();
  const gone: string[] = [];
  for (const kind of ["avatar", "video"] as const) {
    const ids = known.filter((j) => j.kind === kind).map((j) => j.jobId);
    for (let i = 0; i < ids.length; i += D1_IDS_PER_QUERY) {
      const chunk = ids.slice(i, i + D1_IDS_PER_QUERY);
      const t = sharedTable(kind);
      const rows = await db(env).select({ id: t.id, status: t.status }).from(t).where(inArray(t.id, chunk)).all();
      const live = new Set(rows.filter((r) => !isTerminal(r.status)).map((r) => r.id));
      gone.push(...chunk.filter((id) => !live.has(id)));
    }
  }
  if (gone.length) await releaseRenderer(env, gone, now);
  return gone.length;
}
