/**
 * The renderer instances (pool_instances: runs and renders each holds, when it was last busy) and the runs
 * that hold them (pool_leases). Which run gets which instance is decided in pool-state.ts.
 */
import { addRunning, changeAccount } from "./pool-accounts";
import type { HeldJob, JobRef, RunKind, RunRequest } from "./pool-jobs";
import { firstRow, type PoolSql } from "./pool-schema";

export interface FreeInstance {
  instance: number;
  runs: number;
  last_busy: number;
}
export type Leased = JobRef & { instance: number; idleMs: number | null };

/** Instances 0…n−1 have rows (a raised RENDERER_INSTANCES adds them; a lowered one leaves the rest unused). */
export function addInstances(sql: PoolSql, n: number): void {
  const top = firstRow<{ top: number | null }>(sql, "SELECT max(instance) AS top FROM pool_instances");
  for (let i = (top?.top ?? -1) + 1; i < n; i++) sql.exec("INSERT INTO pool_instances (instance) VALUES (?)", i);
}

/** The lease the job holds, if any. */
export function heldLease(sql: PoolSql, jobId: string): { instance: number } | undefined {
  return firstRow<{ instance: number }>(sql, "SELECT instance FROM pool_leases WHERE job_id = ?", jobId);
}

/** The least loaded of the first `instances`, the most recently busy among equals. */
export function leastLoaded(sql: PoolSql, instances: number): FreeInstance {
  // "+instance": not an index term, so the load index answers ORDER BY … LIMIT 1 without sorting every instance.
  return firstRow<FreeInstance>(
    sql,
    "SELECT instance, runs, last_busy FROM pool_instances WHERE +instance < ? ORDER BY runs, last_busy DESC, instance LIMIT 1",
    instances,
  ) as FreeInstance;
}

/** Of the first `instances`, one without a render: the least loaded, the most recently busy among equals. */
export function freeForRender(sql: PoolSql, instances: number): FreeInstance | undefined {
  return firstRow<FreeInstance>(
    sql,
    "SELECT instance, runs, last_busy FROM pool_instances WHERE renders = 0 AND instance < ? ORDER BY runs, last_busy DESC, instance LIMIT 1",
    instances,
  );
}

export function instanceAt(sql: PoolSql, instance: number): FreeInstance {
  return firstRow<FreeInstance>(
    sql,
    "SELECT instance, runs, last_busy FROM pool_instances WHERE instance = ?",
    instance,
  ) as FreeInstance;
}

/** Instances without a render, counted up to reserve + 1 (enough to know whether any is beyond the reserve). */
export function freeInstances(sql: PoolSql, instances: number, reserve: number): number {
  const free = firstRow<{ n: number }>(
    sql,
    "SELECT count(*) AS n FROM (SELECT 1 FROM pool_instances WHERE renders = 0 AND +instance < ? LIMIT ?)",
    instances,
    reserve + 1,
  );
  return Number(free?.n);
}

export function lease(sql: PoolSql, req: RunRequest, on: FreeInstance, now: number): Leased {
  const idleMs = on.runs > 0 ? 0 : on.last_busy < 0 ? null : now - on.last_busy;
  const render = req.kind === "video" ? 1 : 0;
  sql.exec(
    "INSERT INTO pool_leases (job_id, kind, account_id, instance, at, idle_ms) VALUES (?, ?, ?, ?, ?, ?)",
    req.jobId,
    req.kind,
    req.accountId,
    on.instance,
    now,
    idleMs,
  );
  sql.exec(
    "UPDATE pool_instances SET runs = runs + 1, renders = renders + ?, last_busy = ? WHERE instance = ?",
    render,
    now,
    on.instance,
  );
  if (render) addRunning(sql, req.accountId);
  return { kind: req.kind, jobId: req.jobId, instance: on.instance, idleMs };
}

/** The job's lease, if it holds one, is given up: false when it holds none. */
export function endLease(sql: PoolSql, jobId: string, now: number): boolean {
  const ended = firstRow<{ kind: RunKind; account_id: string; instance: number }>(
    sql,
    "DELETE FROM pool_leases WHERE job_id = ? RETURNING kind, account_id, instance",
    jobId,
  );
  if (!ended) return false;
  const render = ended.kind === "video" ? 1 : 0;
  sql.exec(
    "UPDATE pool_instances SET runs = runs - 1, renders = renders - ?, last_busy = ? WHERE instance = ?",
    render,
    now,
    ended.instance,
  );
  if (render) changeAccount(sql, ended.account_id, "running = running - 1");
  return true;
}

/** Every lease (at most a few per instance), for the sweep. */
export function leasedJobs(sql: PoolSql): HeldJob[] {
  return sql
    .exec("SELECT kind, job_id, at FROM pool_leases")
    .map((r) => ({ kind: r.kind as RunKind, jobId: String(r.job_id), held: true, since: Number(r.at) }));
}
