/**
 * Who holds which renderer instance, and who waits (docs/operations.md, "Capacity"), kept as rows
 * (pool-schema.ts): a grant or a release is a handful of indexed statements whatever the line's length, and
 * nothing lives in memory, so a restart of the object loses nothing. The RendererPool Durable Object runs it
 * over its SQLite storage; `npm run bench:pool` runs the same module over Node's SQLite. The rules are here;
 * the rows they read and write, in pool-leases.ts (instances, runs), pool-waiters.ts (the line) and
 * pool-accounts.ts.
 *
 * - A video render needs an instance to itself (one render keeps both cores busy, docs/renderer.md): it goes
 *   to an instance without a render, the least loaded, the most recently busy among equals (awake: no cold
 *   start). No such instance: it waits.
 * - Avatar analyses are short and run beside a render: they never wait here, they go to the least loaded
 *   instance (the renderer's own slots and waiting list take it from there).
 * - Waiting is per account, first come first served within it. A free instance goes to the waiting account
 *   with the fewest renders running, ties in turn (round robin): an account with 200 renders waiting does
 *   not delay another account's first render, which takes the next instance that frees.
 * - While another account waits: an account running `accountCap` renders gets no further instance, and an
 *   account already rendering leaves the last `reserve` free instances to accounts with nothing running
 *   (their first render then starts at once instead of waiting for an instance to free). Alone in the line,
 *   an account may use every instance.
 */
import type { PoolConfig } from "./pool-config";
import type { Grant, HeldJob, Outcome, RunRequest } from "./pool-jobs";
import {
  addInstances,
  endLease,
  freeForRender,
  freeInstances,
  heldLease,
  instanceAt,
  type Leased,
  lease,
  leasedJobs,
  leastLoaded,
} from "./pool-leases";
import { createPoolTables, type PoolSql } from "./pool-schema";
import { enqueue, leaveLine, nextInLine, takeHead, waitingPage } from "./pool-waiters";

export class PoolState {
  private constructor(private readonly sql: PoolSql) {}

  /** The pool over `sql`, its tables created when missing. */
  static open(sql: PoolSql): PoolState {
    createPoolTables(sql);
    return new PoolState(sql);
  }

  /** Idempotent per job: a job that holds an instance gets the same one again (a re-dispatch after a stall). */
  acquire(req: RunRequest, config: PoolConfig, now: number): Outcome<Grant> {
    addInstances(this.sql, config.instances);
    const held = heldLease(this.sql, req.jobId);
    if (held) return { result: { instance: held.instance, idleMs: 0 }, granted: this.pump(config, now) };
    if (req.kind === "avatar") {
      const { instance, idleMs } = lease(this.sql, req, leastLoaded(this.sql, config.instances), now);
      return { result: { instance, idleMs }, granted: this.pump(config, now) };
    }
    const ahead = enqueue(this.sql, req, now);
    const granted = this.pump(config, now);
    const mine = granted.find((g) => g.jobId === req.jobId);
    const others = granted.filter((g) => g !== mine).map(({ kind, jobId }) => ({ kind, jobId }));
    return { result: mine ? { instance: mine.instance, idleMs: mine.idleMs } : { waiting: ahead }, granted: others };
  }

  /** The run ended, failed to start, or the job is gone: its instance (or place in line) is given up. */
  release(jobIds: string[], config: PoolConfig, now: number): Outcome<number> {
    addInstances(this.sql, config.instances);
    let released = 0;
    for (const jobId of jobIds) if (endLease(this.sql, jobId, now) || leaveLine(this.sql, jobId)) released++;
    return { result: released, granted: this.pump(config, now).map(({ kind, jobId }) => ({ kind, jobId })) };
  }

  /**
   * For the sweep: every lease, then the next page of the line (pool-waiters.ts waitingPage), so a sweep
   * reads a bounded page however long the line is.
   */
  jobsToCheck(waiting: number): HeldJob[] {
    return [...leasedJobs(this.sql), ...waitingPage(this.sql, waiting)];
  }

  /** Renders per instance and waiting renders per account (for logs and tests). */
  load(): { renders: number[]; runs: number[]; waiting: Record<string, number> } {
    const rows = this.sql.exec("SELECT runs, renders FROM pool_instances ORDER BY instance");
    const waiting = this.sql.exec("SELECT account_id, waiting FROM pool_accounts WHERE waiting > 0 ORDER BY turn");
    return {
      renders: rows.map((r) => Number(r.renders)),
      runs: rows.map((r) => Number(r.runs)),
      waiting: Object.fromEntries(waiting.map((r) => [String(r.account_id), Number(r.waiting)])),
    };
  }

  /** Takes over runs and waiting renders recorded elsewhere (the previous design's snapshot), in their order. */
  adopt(leases: (RunRequest & { instance: number; at: number })[], waiting: (RunRequest & { since: number })[]) {
    for (const l of leases) {
      addInstances(this.sql, l.instance + 1);
      lease(this.sql, l, instanceAt(this.sql, l.instance), l.at);
    }
    for (const w of waiting) enqueue(this.sql, w, w.since);
  }

  /** Hands free instances to waiting renders: fewest running first, then in turn, within the cap. */
  private pump(config: PoolConfig, now: number): Leased[] {
    const granted: Leased[] = [];
    for (;;) {
      const next = nextInLine(this.sql);
      if (!next.length) break;
      // next[0] runs the fewest: when it is at the cap, or already rendering, so is every waiting account.
      const { accountId, running } = next[0];
      const others = next.length > 1;
      if (others && running >= config.accountCap) break;
      const free = freeForRender(this.sql, config.instances);
      if (!free) break;
      const reserve = config.reserve ?? 0;
      if (others && running > 0 && reserve > 0 && freeInstances(this.sql, config.instances, reserve) <= reserve) break;
      const jobId = takeHead(this.sql, accountId);
      granted.push(lease(this.sql, { kind: "video", jobId, accountId }, free, now));
    }
    return granted;
  }
}
