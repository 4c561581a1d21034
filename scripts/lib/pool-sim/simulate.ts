/**
 * Event-driven simulation of one day through a renderer pool (simulated clock): each render is submitted
 * (the consumer's acquire), granted an instance at once or later (a release's pump, then its queue message
 * arrives after a hand-over and acquires again), holds the instance for its render time (plus a cold start
 * if the instance slept) and releases it. The pool under test is called exactly as the Worker calls it.
 */
import type { Grant, Outcome, RunRequest } from "../../../workers/pipeline/renderer/pool-jobs";
import type { Render } from "./demand";

export interface PoolUnderTest {
  acquire(req: RunRequest, now: number): Outcome<Grant>;
  release(jobIds: string[], now: number): Outcome<number>;
  /** Storage operations so far: statements (rows design), value reads and writes (snapshot design). */
  storageOps(): number;
}

export interface SimOptions {
  instances: number;
  /** From a grant by the pump to the render's dispatch (queue delivery, the consumer's acquire). */
  handoverMs: number;
  /** Added to a render dispatched to an instance that slept (idle longer than sleepAfterMs, or never used). */
  coldStartMs: number;
  sleepAfterMs: number;
  /** Stop (and say so) once the pool's calls have used this much CPU. */
  cpuBudgetMs: number;
}

export interface DayFigures {
  renders: number;
  /** Waits (ms) from submission to dispatch of renders submitted while their account had none in flight. */
  firstWaits: number[];
  /** Waits (ms) of every render. */
  waits: number[];
  /** Instances rendering over instances, while at least one render waited. */
  utilWhileWaiting: number;
  utilisation: number;
  largestLine: number;
  grants: number;
  storageOpsPerGrant: number;
  cpuUsPerGrant: number;
  /** Why the run stopped early, if it did. */
  stopped?: string;
}

type EventBody = { t: number } & (
  | { kind: "arrive"; render: Render }
  | { kind: "dispatch"; jobId: string }
  | { kind: "finish"; jobId: string }
);
type Event = EventBody & { seq: number };

/** A binary min-heap of events by time, then insertion order. */
class Events {
  private heap: Event[] = [];
  private seq = 0;
  get size() {
    return this.heap.length;
  }
  push(e: EventBody) {
    const h = this.heap;
    h.push({ ...e, seq: this.seq++ });
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  pop(): Event {
    const h = this.heap;
    const top = h[0];
    const last = h.pop() as Event;
    if (h.length) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
const before = (a: Event, b: Event) => a.t < b.t || (a.t === b.t && a.seq < b.seq);

export function simulateDay(pool: PoolUnderTest, renders: Render[], opts: SimOptions): DayFigures {
  const events = new Events();
  for (const render of renders) events.push({ t: render.at, kind: "arrive", render });
  const byId = new Map(renders.map((r) => [r.jobId, r]));
  const inFlight = new Map<string, number>();
  const first = new Set<string>();
  const figures: DayFigures = {
    renders: renders.length,
    firstWaits: [],
    waits: [],
    utilWhileWaiting: 0,
    utilisation: 0,
    largestLine: 0,
    grants: 0,
    storageOpsPerGrant: 0,
    cpuUsPerGrant: 0,
  };
  let cpuUs = 0;
  const timed = <T>(call: () => T): T => {
    const started = process.cpuUsage();
    try {
      return call();
    } finally {
      const used = process.cpuUsage(started);
      cpuUs += used.user + used.system;
    }
  };
  const opsBefore = pool.storageOps();
  let busy = 0;
  let waiting = 0;
  let last = 0;
  let busyArea = 0;
  let busyWhileWaiting = 0;
  let waitingTime = 0;
  const request = (r: Render): RunRequest => ({ kind: "video", jobId: r.jobId, accountId: r.accountId });
  const started = (r: Render, t: number, coldMs: number) => {
    const wait = t - r.at;
    figures.waits.push(wait);
    if (first.has(r.jobId)) figures.firstWaits.push(wait);
    events.push({ t: t + coldMs + r.renderMs, kind: "finish", jobId: r.jobId });
  };
  const granted = (outcome: Outcome<unknown>, t: number) => {
    for (const g of outcome.granted) {
      waiting--;
      busy++;
      figures.grants++;
      events.push({ t: t + opts.handoverMs, kind: "dispatch", jobId: g.jobId });
    }
  };

  try {
    while (events.size) {
      const e = events.pop();
      const dt = e.t - last;
      busyArea += dt * busy;
      if (waiting > 0) {
        waitingTime += dt;
        busyWhileWaiting += dt * busy;
      }
      last = e.t;
      if (e.kind === "arrive") {
        const r = e.render;
        const n = inFlight.get(r.accountId) ?? 0;
        if (n === 0) first.add(r.jobId);
        inFlight.set(r.accountId, n + 1);
        const outcome = timed(() => pool.acquire(request(r), e.t));
        const grant = outcome.result;
        if ("instance" in grant) {
          busy++;
          figures.grants++;
          const asleep = grant.idleMs === null || grant.idleMs > opts.sleepAfterMs;
          started(r, e.t, asleep ? opts.coldStartMs : 0);
        } else waiting++;
        granted(outcome, e.t);
      } else if (e.kind === "dispatch") {
        const r = byId.get(e.jobId) as Render;
        const again = timed(() => pool.acquire(request(r), e.t));
        if (!("instance" in again.result)) throw new Error(`${r.jobId} was granted, then found waiting`);
        started(r, e.t, 0);
        granted(again, e.t);
      } else {
        const r = byId.get(e.jobId) as Render;
        busy--;
        inFlight.set(r.accountId, (inFlight.get(r.accountId) ?? 1) - 1);
        granted(
          timed(() => pool.release([r.jobId], e.t)),
          e.t,
        );
      }
      figures.largestLine = Math.max(figures.largestLine, waiting);
      if (cpuUs / 1e3 > opts.cpuBudgetMs) {
        figures.stopped = `stopped after ${Math.round(cpuUs / 1e6)} s of pool CPU at ${clock(e.t)}, ${waiting} waiting`;
        break;
      }
    }
  } catch (err) {
    figures.stopped = `${err instanceof Error ? err.message : String(err)} (at ${clock(last)}, ${waiting} waiting)`;
  }
  figures.utilisation = last ? busyArea / (last * opts.instances) : 0;
  figures.utilWhileWaiting = waitingTime ? busyWhileWaiting / (waitingTime * opts.instances) : 1;
  figures.storageOpsPerGrant = (pool.storageOps() - opsBefore) / Math.max(1, figures.grants);
  figures.cpuUsPerGrant = cpuUs / Math.max(1, figures.grants);
  return figures;
}

const clock = (ms: number) => {
  const m = Math.floor(ms / 60_000);
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};
