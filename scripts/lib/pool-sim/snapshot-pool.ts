/**
 * The pool as it was before its state became rows: one snapshot value holding every lease and every waiting
 * render, read and rewritten whole on each call, with linear scans (kept here only to compare in
 * `npm run bench:pool`; the Worker runs workers/pipeline/renderer/pool-state.ts). The logic below is that
 * design's, unchanged; `snapshotPool` adds its storage: the value read and written through V8's serializer
 * (what the Durable Object's storage.kv does), refused above the 2 MB a stored value may hold.
 */
import { deserialize, serialize } from "node:v8";
import type { Grant, JobRef, Outcome, RunRequest } from "../../../workers/pipeline/renderer/pool-jobs";

interface Lease extends RunRequest {
  instance: number;
  at: number;
  idleMs: number | null;
}
interface Waiter {
  jobId: string;
  since: number;
}
interface PoolSnapshot {
  instances: number;
  leases: Lease[];
  order: string[];
  waiting: Record<string, Waiter[]>;
  lastBusy: Record<string, number>;
}

/** Durable Object storage: key and value together at most 2 MB. */
export const MAX_VALUE_BYTES = 2_000_000;

export class SnapshotTooLarge extends Error {}

/** A pool whose instances all render (`running`, one each) and `waiting` in line, in arrival order. */
export interface PoolStart {
  running: RunRequest[];
  waiting: (RunRequest & { since: number })[];
}

/**
 * Today's design behind its storage: each call reads the value, changes it, writes it back. `start` builds
 * the value directly (as that many calls would have left it) so a long line does not take its quadratic time.
 */
export function snapshotPool(instances: number, start: PoolStart = { running: [], waiting: [] }) {
  const first: PoolSnapshot = { instances, leases: [], order: [], waiting: {}, lastBusy: {} };
  start.running.forEach((r, instance) => first.leases.push({ ...r, instance, at: 0, idleMs: null }));
  for (const w of start.waiting) {
    if (!first.waiting[w.accountId]) first.order.push(w.accountId);
    (first.waiting[w.accountId] ??= []).push({ jobId: w.jobId, since: w.since });
  }
  let stored = serialize(first);
  if (stored.length > MAX_VALUE_BYTES)
    throw new SnapshotTooLarge(`${stored.length} bytes, over the 2 MB a value may hold`);
  const meter = { storageOps: 0, bytesWritten: 0, valueBytes: stored.length };
  const change = <T>(run: (pool: SnapshotPoolState) => T): T => {
    const pool = new SnapshotPoolState(deserialize(stored) as PoolSnapshot);
    const out = run(pool);
    const next = serialize(pool.snapshot);
    meter.storageOps += 2;
    if (next.length > MAX_VALUE_BYTES)
      throw new SnapshotTooLarge(
        `the pool's value is ${next.length} bytes, over the ${MAX_VALUE_BYTES} a value may hold`,
      );
    stored = next;
    meter.bytesWritten += next.length;
    meter.valueBytes = next.length;
    return out;
  };
  return {
    meter,
    acquire: (req: RunRequest, now: number) => change((pool) => pool.acquire(req, instances, now)),
    release: (jobIds: string[], now: number) => change((pool) => pool.release(jobIds, now)),
  };
}

export class SnapshotPoolState {
  constructor(private readonly s: PoolSnapshot) {}

  get snapshot(): PoolSnapshot {
    return this.s;
  }

  /** Idempotent per job: a job that holds an instance gets the same one again (a re-dispatch after a stall). */
  acquire(req: RunRequest, instances: number, now: number): Outcome<Grant> {
    this.s.instances = Math.max(1, Math.floor(instances));
    const held = this.s.leases.find((l) => l.jobId === req.jobId);
    if (held) return { result: { instance: held.instance, idleMs: 0 }, granted: this.pump(now) };
    if (req.kind === "avatar") {
      const instance = this.pick(() => true);
      return { result: this.lease(req, instance, now), granted: this.pump(now) };
    }
    if (!this.waiterOf(req.jobId)) {
      if (!this.s.waiting[req.accountId]) {
        this.s.waiting[req.accountId] = [];
        this.s.order.push(req.accountId);
      }
      this.s.waiting[req.accountId].push({ jobId: req.jobId, since: now });
    }
    const granted = this.pump(now);
    const mine = this.s.leases.find((l) => l.jobId === req.jobId);
    if (mine)
      return {
        result: { instance: mine.instance, idleMs: mine.idleMs },
        granted: granted.filter((g) => g.jobId !== req.jobId),
      };
    return { result: { waiting: this.s.waiting[req.accountId].findIndex((w) => w.jobId === req.jobId) }, granted };
  }

  /** The run ended, failed to start, or the job is gone: its instance (or place in line) is given up. */
  release(jobIds: string[], now: number): Outcome<number> {
    let released = 0;
    const ids = new Set(jobIds);
    for (const l of this.s.leases) if (ids.has(l.jobId)) this.s.lastBusy[l.instance] = now;
    this.s.leases = this.s.leases.filter((l) => !ids.has(l.jobId) || (released++, false));
    for (const account of [...this.s.order]) {
      const left = this.s.waiting[account].filter((w) => !ids.has(w.jobId));
      released += this.s.waiting[account].length - left.length;
      this.setWaiting(account, left);
    }
    return { result: released, granted: this.pump(now) };
  }

  /** Renders per instance and waiting renders per account (for logs and tests). */
  load(): { renders: number[]; runs: number[]; waiting: Record<string, number> } {
    const renders = Array.from({ length: this.s.instances }, () => 0);
    const runs = [...renders];
    for (const l of this.s.leases) {
      if (l.instance >= this.s.instances) continue;
      runs[l.instance]++;
      if (l.kind === "video") renders[l.instance]++;
    }
    return { renders, runs, waiting: Object.fromEntries(this.s.order.map((a) => [a, this.s.waiting[a].length])) };
  }

  /** Hands free instances to waiting renders: fewest running first, then in turn. */
  private pump(now: number): JobRef[] {
    const granted: JobRef[] = [];
    while (this.s.order.length) {
      const free = this.freeForRender();
      if (free === null) break;
      const running = (account: string) =>
        this.s.leases.filter((l) => l.kind === "video" && l.accountId === account).length;
      let pick = 0;
      for (let i = 1; i < this.s.order.length; i++)
        if (running(this.s.order[i]) < running(this.s.order[pick])) pick = i;
      const [account] = this.s.order.splice(pick, 1);
      const [next, ...rest] = this.s.waiting[account];
      this.setWaiting(account, rest);
      if (rest.length) this.s.order.push(account);
      this.lease({ kind: "video", jobId: next.jobId, accountId: account }, free, now);
      granted.push({ kind: "video", jobId: next.jobId });
    }
    return granted;
  }

  private freeForRender(): number | null {
    const { renders } = this.load();
    return renders.some((n) => n === 0) ? this.pick((i) => renders[i] === 0) : null;
  }

  /** Least loaded among the allowed instances; ties: the most recently busy (awake), then the lowest index. */
  private pick(allowed: (i: number) => boolean): number {
    const { runs } = this.load();
    let best = -1;
    for (let i = 0; i < runs.length; i++) {
      if (!allowed(i)) continue;
      if (
        best < 0 ||
        runs[i] < runs[best] ||
        (runs[i] === runs[best] && (this.s.lastBusy[i] ?? -1) > (this.s.lastBusy[best] ?? -1))
      )
        best = i;
    }
    return Math.max(best, 0);
  }

  private lease(req: RunRequest, instance: number, now: number): Grant {
    const idleMs = this.idle(instance, now);
    this.s.leases.push({ kind: req.kind, jobId: req.jobId, accountId: req.accountId, instance, at: now, idleMs });
    this.s.lastBusy[instance] = now;
    return { instance, idleMs };
  }

  private idle(instance: number, now: number): number | null {
    if (this.s.leases.some((l) => l.instance === instance)) return 0;
    const last = this.s.lastBusy[instance];
    return last === undefined ? null : now - last;
  }

  private waiterOf(jobId: string): boolean {
    return this.s.order.some((a) => this.s.waiting[a].some((w) => w.jobId === jobId));
  }

  private setWaiting(account: string, list: Waiter[]) {
    if (list.length) this.s.waiting[account] = list;
    else {
      delete this.s.waiting[account];
      this.s.order = this.s.order.filter((a) => a !== account);
    }
  }
}
