/**
 * Who holds which renderer instance, and who waits (docs/operations.md, "Capacity"). Pure data, no I/O:
 * the RendererPool Durable Object keeps one of these and stores its snapshot after every change.
 *
 * - A video render needs an instance to itself (one render keeps both cores busy, docs/renderer.md);
 *   it goes to an instance without a render, the least loaded one, the most recently busy among equals
 *   (it is awake: no cold start). No such instance: it waits.
 * - Avatar analyses are short and run beside a render: they never wait here, they go to the least loaded
 *   instance (the renderer's own slots and waiting list take it from there).
 * - Waiting is per account. A free instance goes to the waiting account with the fewest renders running,
 *   ties round-robin: an account with 200 renders waiting does not delay another account's first render,
 *   which takes the next instance that frees.
 */

export type RunKind = "avatar" | "video";
export interface JobRef {
  kind: RunKind;
  jobId: string;
}
export interface RunRequest extends JobRef {
  accountId: string;
}
interface Lease extends RunRequest {
  instance: number;
  at: number;
  idleMs: number | null;
}
interface Waiter {
  jobId: string;
  since: number;
}

export interface PoolSnapshot {
  instances: number;
  leases: Lease[];
  /** Accounts with waiting renders, in serving order (the next grant goes to the first). */
  order: string[];
  waiting: Record<string, Waiter[]>;
  /** When each instance last held a run (ms), to tell a warm instance from a sleeping one. */
  lastBusy: Record<string, number>;
}

/** An instance for the run, with how long it had been idle (null: never used here); or its place in line. */
export type Grant = { instance: number; idleMs: number | null } | { waiting: number };
export interface Outcome<T> {
  result: T;
  /** Waiting renders that just got an instance: the caller sends their queue messages. */
  granted: JobRef[];
}

export const emptyPool = (instances: number): PoolSnapshot => ({
  instances,
  leases: [],
  order: [],
  waiting: {},
  lastBusy: {},
});

export class PoolState {
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

  /** Every job the pool knows of (held or waiting), for the sweep to check against D1. */
  jobs(): JobRef[] {
    const waiting = Object.values(this.s.waiting).flatMap((ws) =>
      ws.map((w) => ({ kind: "video" as const, jobId: w.jobId })),
    );
    return [...this.s.leases.map(({ kind, jobId }) => ({ kind, jobId })), ...waiting];
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
