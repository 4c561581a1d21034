/**
 * Who holds which renderer instance, and who waits (docs/operations.md, "Capacity"), kept as rows
 * (pool-schema.ts): a grant or a release is a handful of indexed statements whatever the line's length, and
 * nothing lives in memory, so a restart of the object loses nothing. The RendererPool Durable Object runs it
 * over its SQLite storage; `npm run bench:pool` runs the same module over Node's SQLite.
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
import { createPoolTables, type PoolSql, type SqlRow, type SqlValue } from "./pool-schema";

export type RunKind = "avatar" | "video";
export interface JobRef {
  kind: RunKind;
  jobId: string;
}
export interface RunRequest extends JobRef {
  accountId: string;
}
/** How many instances there are; how many one account may hold, and how many stay for first renders, while others wait. */
export interface PoolConfig {
  instances: number;
  accountCap: number;
  /** Default 0. */
  reserve?: number;
}
/**
 * Instances kept, while renders of several accounts wait, for accounts with nothing running: one in fifty
 * (none below 50 instances, where one would be more than 2 % of the capacity).
 */
export const FIRST_RENDER_RESERVE = 1 / 50;

/** The cap is ceil(instances × accountShare), at least 1. */
export function poolConfig(instances: number, accountShare: number): Required<PoolConfig> {
  return {
    instances,
    accountCap: Math.max(1, Math.ceil(instances * accountShare)),
    reserve: Math.floor(instances * FIRST_RENDER_RESERVE),
  };
}

/**
 * An instance for the run, with how long it had been idle (null: never used here); or, waiting, how many
 * renders of the same account are ahead of it (counted up to AHEAD_COUNTED for a render already waiting).
 */
export type Grant = { instance: number; idleMs: number | null } | { waiting: number };
export interface Outcome<T> {
  result: T;
  /** Waiting renders that just got an instance: the caller sends their queue messages. */
  granted: JobRef[];
}
/** A job the pool holds or queues, for the sweep to check against D1 (`since`: held or waiting since). */
export interface HeldJob extends JobRef {
  held: boolean;
  since: number;
}

const AHEAD_COUNTED = 100;

interface FreeInstance {
  instance: number;
  runs: number;
  last_busy: number;
}
type Leased = JobRef & { instance: number; idleMs: number | null };

export class PoolState {
  private constructor(private readonly sql: PoolSql) {}

  /** The pool over `sql`, its tables created when missing. */
  static open(sql: PoolSql): PoolState {
    createPoolTables(sql);
    return new PoolState(sql);
  }

  /** Idempotent per job: a job that holds an instance gets the same one again (a re-dispatch after a stall). */
  acquire(req: RunRequest, config: PoolConfig, now: number): Outcome<Grant> {
    this.addInstances(config.instances);
    const held = this.row<{ instance: number }>("SELECT instance FROM pool_leases WHERE job_id = ?", req.jobId);
    if (held) return { result: { instance: held.instance, idleMs: 0 }, granted: this.pump(config, now) };
    if (req.kind === "avatar") {
      // "+instance": not an index term, so the load index answers ORDER BY … LIMIT 1 without sorting every instance.
      const least = this.row<FreeInstance>(
        "SELECT instance, runs, last_busy FROM pool_instances WHERE +instance < ? ORDER BY runs, last_busy DESC, instance LIMIT 1",
        config.instances,
      );
      const { instance, idleMs } = this.lease(req, least as FreeInstance, now);
      return { result: { instance, idleMs }, granted: this.pump(config, now) };
    }
    const ahead = this.enqueue(req, now);
    const granted = this.pump(config, now);
    const mine = granted.find((g) => g.jobId === req.jobId);
    const others = granted.filter((g) => g !== mine).map(({ kind, jobId }) => ({ kind, jobId }));
    return { result: mine ? { instance: mine.instance, idleMs: mine.idleMs } : { waiting: ahead }, granted: others };
  }

  /** The run ended, failed to start, or the job is gone: its instance (or place in line) is given up. */
  release(jobIds: string[], config: PoolConfig, now: number): Outcome<number> {
    this.addInstances(config.instances);
    let released = 0;
    for (const jobId of jobIds) {
      const lease = this.row<{ kind: RunKind; account_id: string; instance: number }>(
        "DELETE FROM pool_leases WHERE job_id = ? RETURNING kind, account_id, instance",
        jobId,
      );
      if (lease) {
        const render = lease.kind === "video" ? 1 : 0;
        this.sql.exec(
          "UPDATE pool_instances SET runs = runs - 1, renders = renders - ?, last_busy = ? WHERE instance = ?",
          render,
          now,
          lease.instance,
        );
        if (render) this.changeAccount(lease.account_id, "running = running - 1");
        released++;
        continue;
      }
      const waiter = this.row<{ account_id: string }>(
        "DELETE FROM pool_waiters WHERE job_id = ? RETURNING account_id",
        jobId,
      );
      if (waiter) {
        this.changeAccount(waiter.account_id, "waiting = waiting - 1");
        released++;
      }
    }
    return { result: released, granted: this.pump(config, now).map(({ kind, jobId }) => ({ kind, jobId })) };
  }

  /**
   * For the sweep: every lease (at most a few per instance), then the next `waiting` renders of the line
   * after the previous call's last one (from the start again once the end is reached), so a sweep reads
   * a bounded page however long the line is.
   */
  jobsToCheck(waiting: number): HeldJob[] {
    const leases = this.sql
      .exec("SELECT kind, job_id, at FROM pool_leases")
      .map((r) => ({ kind: r.kind as RunKind, jobId: String(r.job_id), held: true, since: Number(r.at) }));
    const after = Number(this.row<{ value: number }>("SELECT value FROM pool_meta WHERE key = 'check_after'")?.value);
    const page = this.sql.exec(
      "SELECT seq, job_id, since FROM pool_waiters WHERE seq > ? ORDER BY seq LIMIT ?",
      after,
      waiting,
    );
    const next = page.length < waiting ? 0 : Number(page[page.length - 1].seq);
    this.sql.exec("UPDATE pool_meta SET value = ? WHERE key = 'check_after'", next);
    const queued = page.map((r) => ({
      kind: "video" as const,
      jobId: String(r.job_id),
      held: false,
      since: Number(r.since),
    }));
    return [...leases, ...queued];
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
      this.addInstances(l.instance + 1);
      const free = this.row<FreeInstance>(
        "SELECT instance, runs, last_busy FROM pool_instances WHERE instance = ?",
        l.instance,
      );
      this.lease(l, free as FreeInstance, l.at);
    }
    for (const w of waiting) this.enqueue(w, w.since);
  }

  /** Hands free instances to waiting renders: fewest running first, then in turn, within the cap. */
  private pump(config: PoolConfig, now: number): Leased[] {
    const granted: Leased[] = [];
    for (;;) {
      const next = this.sql.exec(
        "SELECT account_id, running FROM pool_accounts WHERE waiting > 0 ORDER BY running, turn LIMIT 2",
      );
      if (!next.length) break;
      // next[0] runs the fewest: when it is at the cap, or already rendering, so is every waiting account.
      const running = Number(next[0].running);
      const others = next.length > 1;
      if (others && running >= config.accountCap) break;
      const free = this.row<FreeInstance>(
        "SELECT instance, runs, last_busy FROM pool_instances WHERE renders = 0 AND instance < ? ORDER BY runs, last_busy DESC, instance LIMIT 1",
        config.instances,
      );
      if (!free) break;
      const reserve = config.reserve ?? 0;
      if (others && running > 0 && reserve > 0 && this.freeInstances(config.instances, reserve) <= reserve) break;
      const accountId = String(next[0].account_id);
      const head = this.row<{ job_id: string }>(
        "DELETE FROM pool_waiters WHERE seq = (SELECT seq FROM pool_waiters WHERE account_id = ? ORDER BY seq LIMIT 1) RETURNING job_id",
        accountId,
      );
      if (!head) throw new Error(`pool_accounts says ${accountId} waits, pool_waiters has none of its renders`);
      this.sql.exec(
        "UPDATE pool_accounts SET waiting = waiting - 1, turn = ? WHERE account_id = ?",
        this.nextTurn(),
        accountId,
      );
      granted.push(this.lease({ kind: "video", jobId: head.job_id, accountId }, free, now));
    }
    return granted;
  }

  /** A waiting render joins the end of its account's line; the account joins the round robin's end if it was out. */
  private enqueue(req: RunRequest, now: number): number {
    const seq = this.row<{ seq: number }>("SELECT seq FROM pool_waiters WHERE job_id = ?", req.jobId);
    if (seq) {
      const ahead = this.row<{ n: number }>(
        "SELECT count(*) AS n FROM (SELECT 1 FROM pool_waiters WHERE account_id = ? AND seq < ? LIMIT ?)",
        req.accountId,
        seq.seq,
        AHEAD_COUNTED,
      );
      return Number(ahead?.n);
    }
    this.sql.exec(
      "INSERT INTO pool_waiters (job_id, account_id, since) VALUES (?, ?, ?)",
      req.jobId,
      req.accountId,
      now,
    );
    const account = this.row<{ waiting: number }>(
      `INSERT INTO pool_accounts (account_id, waiting, turn) VALUES (?, 1, ?)
       ON CONFLICT (account_id) DO UPDATE SET waiting = waiting + 1,
         turn = CASE WHEN waiting = 0 THEN excluded.turn ELSE turn END
       RETURNING waiting`,
      req.accountId,
      this.nextTurn(),
    );
    return Number(account?.waiting) - 1;
  }

  private lease(req: RunRequest, on: FreeInstance, now: number): Leased {
    const idleMs = on.runs > 0 ? 0 : on.last_busy < 0 ? null : now - on.last_busy;
    const render = req.kind === "video" ? 1 : 0;
    this.sql.exec(
      "INSERT INTO pool_leases (job_id, kind, account_id, instance, at, idle_ms) VALUES (?, ?, ?, ?, ?, ?)",
      req.jobId,
      req.kind,
      req.accountId,
      on.instance,
      now,
      idleMs,
    );
    this.sql.exec(
      "UPDATE pool_instances SET runs = runs + 1, renders = renders + ?, last_busy = ? WHERE instance = ?",
      render,
      now,
      on.instance,
    );
    if (render)
      this.sql.exec(
        "INSERT INTO pool_accounts (account_id, running) VALUES (?, 1) ON CONFLICT (account_id) DO UPDATE SET running = running + 1",
        req.accountId,
      );
    return { kind: req.kind, jobId: req.jobId, instance: on.instance, idleMs };
  }

  /** An account with nothing running and nothing waiting leaves the table (and its turn). */
  private changeAccount(accountId: string, change: "running = running - 1" | "waiting = waiting - 1") {
    const left = this.row<{ running: number; waiting: number }>(
      `UPDATE pool_accounts SET ${change} WHERE account_id = ? RETURNING running, waiting`,
      accountId,
    );
    if (left && left.running <= 0 && left.waiting <= 0)
      this.sql.exec("DELETE FROM pool_accounts WHERE account_id = ?", accountId);
  }

  /** Instances 0…n−1 have rows (a raised RENDERER_INSTANCES adds them; a lowered one leaves the rest unused). */
  private addInstances(n: number) {
    const top = this.row<{ top: number | null }>("SELECT max(instance) AS top FROM pool_instances");
    for (let i = (top?.top ?? -1) + 1; i < n; i++) this.sql.exec("INSERT INTO pool_instances (instance) VALUES (?)", i);
  }

  /** Free instances, counted up to reserve + 1 (enough to know whether any is beyond the reserve). */
  private freeInstances(instances: number, reserve: number): number {
    const free = this.row<{ n: number }>(
      "SELECT count(*) AS n FROM (SELECT 1 FROM pool_instances WHERE renders = 0 AND +instance < ? LIMIT ?)",
      instances,
      reserve + 1,
    );
    return Number(free?.n);
  }

  private nextTurn(): number {
    return Number(
      this.row<{ value: number }>("UPDATE pool_meta SET value = value + 1 WHERE key = 'turn' RETURNING value")?.value,
    );
  }

  private row<T>(query: string, ...params: SqlValue[]): T | undefined {
    return this.sql.exec(query, ...params)[0] as (SqlRow & T) | undefined;
  }
}
