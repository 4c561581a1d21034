/**
 * Accepted jobs: concurrency slots per kind, a bounded waiting list, dedupe of re-dispatches and
 * fencing of attempts, and the shutdown that aborts everything.
 *
 * Runs are told apart by job and, for a split render, segment or join (runKey): each has its own attempts.
 * - Same run + attempt already waiting or running → accepted again, no second run.
 * - A newer attempt of a job that is waiting/running → the older run is aborted (silently: the Worker
 *   ignores events of older attempts anyway) and the new one is accepted.
 * - An older attempt than the one held → refused (409): the Worker has moved on.
 */
import { rm } from "node:fs/promises";
import { type RendererConfig, JobStop, WorkerLink, type Logger, redactedSources } from "../io/public";
import { JobFailure, unexpectedFailure } from "../rules/public";
import { runAvatarJob } from "./avatar-job";
import type { JobContext } from "./context";
import type { Dispatch } from "@avatar-video/contract";
import type { Engines } from "./engines";
import { AttemptsSeen } from "./attempts-seen";
import { makeScratchDir, removeOrphanedScratchDirs } from "./scratch-dirs";
import { runJoinJob } from "./join-job";
import { runVideoJob } from "./video-job";

export type SubmitResult =
  | { status: 202; duplicate: boolean; state: "running" | "waiting" }
  | { status: 409; error: string }
  | { status: 503; error: string };

interface Entry {
  dispatch: Dispatch;
  controller: AbortController;
  link: WorkerLink;
  /** waiting: in the list; running: started (until its terminal event is delivered); done: settled. */
  state: "waiting" | "running" | "done";
  /** Holds one of its kind's slots. Exactly one place gives it back: `releaseSlot`. */
  holdsSlot: boolean;
  done: Promise<void>;
  settle: () => void;
  log: Logger;
}

/**
 * Slot rules (docs/renderer.md "Concurrency"): a slot is held only while a job computes. It is given back
 * — whichever comes first — when the job is stopped (Worker abort, fencing, a newer attempt, shutdown:
 * its signal aborts; whatever the run is still unwinding), when its work ends (before the terminal event
 * is delivered, which may retry for minutes while the Worker is unreachable), or when its run settles.
 * A waiting job that is stopped leaves the list at once. `releaseSlot` is idempotent.
 */
export class JobManager {
  private readonly jobs = new Map<string, Entry>();
  private readonly waiting: Entry[] = [];
  private readonly running = { avatar: 0, video: 0 };
  /** Every entry not yet settled (including stopped ones still unwinding). */
  private readonly live = new Set<Entry>();
  private draining = false;
  /** A late older attempt is refused even after the newer one ended. */
  private readonly attempts = new AttemptsSeen();

  constructor(
    private readonly config: RendererConfig,
    private readonly engines: Engines,
    private readonly log: Logger,
  ) {}

  /**
   * Removes scratch directories left by dead renderer processes (killed mid-job). Directory names carry
   * the owner's pid, so another live renderer sharing WORK_DIR keeps its directories.
   */
  async init(): Promise<void> {
    await removeOrphanedScratchDirs(this.config.workDir);
  }

  get activeJobs(): number {
    return this.running.avatar + this.running.video;
  }
  get waitingJobs(): number {
    return this.waiting.length;
  }
  /** Entries not yet settled: running, waiting, stopped but still unwinding, delivering a terminal event. */
  get liveJobs(): number {
    return this.live.size;
  }
  get isDraining(): boolean {
    return this.draining;
  }

  submit(d: Dispatch): SubmitResult {
    if (this.draining) return { status: 503, error: "shutting down" };
    const key = runKey(d);
    const seen = this.attempts.highest(key);
    if (seen !== undefined && seen > d.attempt) {
      return { status: 409, error: `attempt ${d.attempt} is older than attempt ${seen} of this job` };
    }
    const held = this.jobs.get(key);
    if (held && held.state !== "done") {
      if (held.dispatch.attempt === d.attempt && !held.controller.signal.aborted) {
        return { status: 202, duplicate: true, state: held.state as "running" | "waiting" };
      }
      if (held.dispatch.attempt > d.attempt) {
        return {
          status: 409,
          error: `attempt ${d.attempt} is older than attempt ${held.dispatch.attempt} held for this job`,
        };
      }
      if (held.dispatch.attempt < d.attempt) {
        this.log.info("attempt_superseded", { jobId: d.jobId, old: held.dispatch.attempt, attempt: d.attempt });
      }
      // Stopping frees its slot (or its place in the list) synchronously, before the check below.
      this.stop(held, new JobStop("superseded", `superseded by attempt ${d.attempt}`));
    }
    const hasSlot = this.running[d.kind] < this.config.concurrency[d.kind];
    if (!hasSlot && this.waiting.length >= this.config.concurrency.queued) {
      return {
        status: 503,
        error: `busy: ${this.running[d.kind]} ${d.kind} job(s) running, ${this.waiting.length} waiting`,
      };
    }
    this.attempts.remember(key, d.attempt);
    const entry = this.create(d);
    if (hasSlot) this.begin(entry);
    else {
      this.waiting.push(entry);
      // A waiting job is alive: its heartbeat keeps the Worker's sweep from re-dispatching it.
      entry.link.progress("waiting").catch(() => {});
    }
    return { status: 202, duplicate: false, state: entry.state as "running" | "waiting" };
  }

  /** Aborts every job (they report nothing more) and waits up to the grace period for them to unwind. */
  async shutdown(): Promise<void> {
    this.draining = true;
    for (const entry of [...this.live]) this.stop(entry, new JobStop("shutdown", "renderer shutting down"));
    const all = Promise.allSettled([...this.live].map((e) => e.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, this.config.shutdownGraceMs)))]);
    clearTimeout(timer);
  }

  private stop(entry: Entry, reason: JobStop): void {
    if (!entry.controller.signal.aborted)
      entry.controller.abort(reason); // → onStopped
    else this.onStopped(entry);
  }

  private create(d: Dispatch): Entry {
    const controller = new AbortController();
    const log = this.log.child({ jobId: d.jobId, attempt: d.attempt, kind: d.kind });
    const link = new WorkerLink(d, controller, this.config.link, this.config.heartbeatMs, log);
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    const entry: Entry = { dispatch: d, controller, link, state: "waiting", holdsSlot: false, done, settle, log };
    // Whoever aborts (the Worker's answer, fencing, a newer attempt, shutdown), the slot and the place in
    // the list are given back right here, synchronously.
    controller.signal.addEventListener("abort", () => this.onStopped(entry), { once: true });
    this.jobs.set(runKey(d), entry);
    this.live.add(entry);
    return entry;
  }

  private onStopped(entry: Entry): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) {
      this.waiting.splice(i, 1);
      this.finish(entry); // never started: nothing to unwind
    }
    this.releaseSlot(entry);
  }

  /** Starts a job on a free slot (the caller checked there is one). */
  private begin(entry: Entry): void {
    if (entry.state !== "waiting") return;
    entry.state = "running";
    entry.holdsSlot = true;
    this.running[entry.dispatch.kind]++;
    this.run(entry)
      .catch((err) => entry.log.error("job_runner_crashed", { error: err }))
      .finally(() => this.finish(entry));
  }

  private releaseSlot(entry: Entry): void {
    if (!entry.holdsSlot) return;
    entry.holdsSlot = false;
    this.running[entry.dispatch.kind]--;
    this.startWaiting();
  }

  /** The entry is settled: no slot, not listed, not live, link closed. Idempotent. */
  private finish(entry: Entry): void {
    this.releaseSlot(entry);
    if (entry.state === "done") return;
    entry.state = "done";
    entry.link.close();
    this.live.delete(entry);
    if (this.jobs.get(runKey(entry.dispatch)) === entry) this.jobs.delete(runKey(entry.dispatch));
    entry.settle();
  }

  private startWaiting(): void {
    if (this.draining) return;
    for (let i = 0; i < this.waiting.length; ) {
      const e = this.waiting[i];
      if (this.running[e.dispatch.kind] < this.config.concurrency[e.dispatch.kind]) {
        this.waiting.splice(i, 1);
        this.begin(e);
      } else i++;
    }
  }

  /** Work (slot held), then the terminal event (slot already given back). */
  private async run(entry: Entry): Promise<void> {
    const { dispatch: d, controller, link, log } = entry;
    const signal = controller.signal;
    const started = performance.now();
    let workDir: string | undefined;
    let terminal: (() => Promise<void>) | undefined;
    try {
      signal.throwIfAborted();
      workDir = await makeScratchDir(this.config.workDir, d);
      log.info("job_started", redactedSources(d));
      const base = { link, config: this.config, engines: this.engines, log, workDir, signal };
      const result =
        d.kind === "avatar"
          ? await runAvatarJob({ ...base, dispatch: d } as JobContext<typeof d>)
          : d.join
            ? await runJoinJob({ ...base, dispatch: d } as JobContext<typeof d>)
            : await runVideoJob({ ...base, dispatch: d } as JobContext<typeof d>);
      signal.throwIfAborted();
      if ("split" in result) {
        log.info("job_split", { ms: Math.round(performance.now() - started), segments: result.split });
        terminal = () => link.split(result.split);
      } else {
        log.info("job_succeeded", { ms: Math.round(performance.now() - started), timings: result.timings });
        terminal = () => link.succeeded(result);
      }
    } catch (err) {
      if (signal.aborted) {
        const reason = signal.reason as JobStop;
        log.info("job_stopped", {
          kind: reason?.kind,
          reason: reason?.message,
          ms: Math.round(performance.now() - started),
        });
      } else {
        const failure = toFailure(err, d.kind);
        log.warn("job_failed", {
          code: failure.code,
          retryable: failure.retryable,
          detail: failure.detail ?? failure.message,
          ms: Math.round(performance.now() - started),
        });
        terminal = () => link.failed(failure.toEventError());
      }
    } finally {
      if (workDir)
        await rm(workDir, { recursive: true, force: true }).catch((err) =>
          log.warn("work_dir_not_removed", { error: err }),
        );
      this.releaseSlot(entry);
    }
    if (terminal && !signal.aborted) await terminal();
  }
}

/** Which run of a job a dispatch is: the job's own, one segment of a split render, or its join. */
export function runKey(d: Dispatch): string {
  if (d.kind === "video" && d.segment) return `${d.jobId}/segment-${d.segment.index}`;
  if (d.kind === "video" && d.join) return `${d.jobId}/join`;
  return d.jobId;
}

function toFailure(err: unknown, kind: Dispatch["kind"]): JobFailure {
  if (err instanceof JobFailure) return err;
  const detail = (err as Error)?.stack ?? String(err);
  return unexpectedFailure(kind, detail);
}
