/**
 * Accepted jobs: concurrency slots per kind, a bounded waiting list, dedupe of re-dispatches and
 * fencing of attempts, and the shutdown that aborts everything.
 *
 * - Same jobId + attempt already waiting or running → accepted again, no second run.
 * - A newer attempt of a job that is waiting/running → the older run is aborted (silently: the Worker
 *   ignores events of older attempts anyway) and the new one is accepted.
 * - An older attempt than the one held → refused (409): the Worker has moved on.
 */
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { RendererConfig } from "../config";
import { JobFailure } from "../job-failure";
import { JobStop, WorkerLink } from "../worker-link";
import { runAvatarJob } from "./avatar-job";
import type { JobContext } from "./context";
import type { Dispatch } from "./dispatch";
import type { Engines } from "./engines";
import { AVATAR_MESSAGES, INTERNAL_ERROR } from "./failures";
import type { Logger } from "./log";
import { runVideoJob } from "./video-job";

export type SubmitResult =
  | { status: 202; duplicate: boolean; state: "running" | "waiting" }
  | { status: 409; error: string }
  | { status: 503; error: string };

interface Entry {
  dispatch: Dispatch;
  controller: AbortController;
  link: WorkerLink;
  state: "waiting" | "running" | "done";
  done: Promise<void>;
  start?: () => void;
}

const WORK_PREFIX = "job-";

export class JobManager {
  private readonly jobs = new Map<string, Entry>();
  private readonly waiting: Entry[] = [];
  private readonly running = { avatar: 0, video: 0 };
  /** Every entry not yet settled (including superseded ones still unwinding). */
  private readonly live = new Set<Entry>();
  private draining = false;
  /** Highest attempt seen per job (bounded, 1 h): a late older attempt is refused even after the newer one ended. */
  private readonly attempts = new Map<string, { attempt: number; at: number }>();

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
    await mkdir(this.config.workDir, { recursive: true });
    for (const name of await readdir(this.config.workDir).catch(() => [] as string[])) {
      const m = /^job-(\d+)-/.exec(name);
      if (!m || (Number(m[1]) !== process.pid && processAlive(Number(m[1])))) continue;
      await rm(path.join(this.config.workDir, name), { recursive: true, force: true });
    }
  }

  get activeJobs(): number {
    return this.running.avatar + this.running.video;
  }
  get waitingJobs(): number {
    return this.waiting.length;
  }
  get isDraining(): boolean {
    return this.draining;
  }

  submit(d: Dispatch): SubmitResult {
    if (this.draining) return { status: 503, error: "shutting down" };
    const seen = this.attempts.get(d.jobId);
    if (seen && seen.attempt > d.attempt) {
      return { status: 409, error: `attempt ${d.attempt} is older than attempt ${seen.attempt} of this job` };
    }
    const held = this.jobs.get(d.jobId);
    if (held && held.state !== "done") {
      if (held.dispatch.attempt === d.attempt) return { status: 202, duplicate: true, state: held.state as "running" | "waiting" };
      if (held.dispatch.attempt > d.attempt) {
        return { status: 409, error: `attempt ${d.attempt} is older than attempt ${held.dispatch.attempt} held for this job` };
      }
      this.log.info("newer attempt supersedes the running one", { jobId: d.jobId, old: held.dispatch.attempt, attempt: d.attempt });
      this.stopEntry(held, new JobStop("superseded", `superseded by attempt ${d.attempt}`));
    }
    const hasSlot = this.running[d.kind] < this.config.concurrency[d.kind];
    if (!hasSlot && this.waiting.length >= this.config.concurrency.queued) {
      return { status: 503, error: `busy: ${this.running[d.kind]} ${d.kind} job(s) running, ${this.waiting.length} waiting` };
    }
    this.rememberAttempt(d);
    const entry = this.create(d);
    if (hasSlot) entry.start!();
    else {
      this.waiting.push(entry);
      // A waiting job is alive: its heartbeat keeps the Worker's sweep from re-dispatching it.
      entry.link.progress("waiting").catch(() => {});
    }
    return { status: 202, duplicate: false, state: entry.state as "running" | "waiting" };
  }

  private rememberAttempt(d: Dispatch): void {
    const now = Date.now();
    this.attempts.delete(d.jobId); // re-insert: the Map's order is the age order
    this.attempts.set(d.jobId, { attempt: d.attempt, at: now });
    for (const [id, v] of this.attempts) {
      if (this.attempts.size <= 10_000 && now - v.at < 3_600_000) break;
      this.attempts.delete(id);
    }
  }

  /** Aborts every job (they report nothing more) and waits up to the grace period for them to unwind. */
  async shutdown(): Promise<void> {
    this.draining = true;
    for (const entry of [...this.live]) this.stopEntry(entry, new JobStop("shutdown", "renderer shutting down"));
    const all = Promise.allSettled([...this.live].map((e) => e.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, this.config.shutdownGraceMs)))]);
    clearTimeout(timer);
  }

  private stopEntry(entry: Entry, reason: JobStop): void {
    const i = this.waiting.indexOf(entry);
    if (i >= 0) this.waiting.splice(i, 1);
    if (!entry.controller.signal.aborted) entry.controller.abort(reason);
    if (entry.state === "waiting") entry.start!(); // runs straight into the abort: settles and cleans up
  }

  private create(d: Dispatch): Entry {
    const controller = new AbortController();
    const log = this.log.child({ jobId: d.jobId, attempt: d.attempt, kind: d.kind });
    const link = new WorkerLink(d, controller, this.config.link, this.config.heartbeatMs, log);
    let release!: () => void;
    const entry: Entry = { dispatch: d, controller, link, state: "waiting", done: new Promise<void>((r) => (release = r)) };
    entry.start = () => {
      if (entry.state !== "waiting") return;
      entry.state = "running";
      const counted = !controller.signal.aborted;
      if (counted) this.running[d.kind]++;
      this.run(entry, log)
        .catch((err) => log.error("job runner crashed", { error: err }))
        .finally(() => {
          entry.state = "done";
          if (counted) this.running[d.kind]--;
          this.live.delete(entry);
          if (this.jobs.get(d.jobId) === entry) this.jobs.delete(d.jobId);
          release();
          this.startWaiting();
        });
    };
    this.jobs.set(d.jobId, entry);
    this.live.add(entry);
    return entry;
  }

  private startWaiting(): void {
    if (this.draining) return;
    for (let i = 0; i < this.waiting.length; ) {
      const e = this.waiting[i];
      if (this.running[e.dispatch.kind] < this.config.concurrency[e.dispatch.kind]) {
        this.waiting.splice(i, 1);
        e.start!();
      } else i++;
    }
  }

  private async run(entry: Entry, log: Logger): Promise<void> {
    const { dispatch: d, controller, link } = entry;
    const signal = controller.signal;
    const started = performance.now();
    let workDir: string | undefined;
    try {
      signal.throwIfAborted();
      workDir = await mkdtemp(path.join(this.config.workDir, `${WORK_PREFIX}${process.pid}-${d.kind}-${d.jobId}-a${d.attempt}-`));
      log.info("job started", sourceFields(d));
      const base = { link, config: this.config, engines: this.engines, log, workDir, signal };
      const result =
        d.kind === "avatar"
          ? await runAvatarJob({ ...base, dispatch: d } as JobContext<typeof d>)
          : await runVideoJob({ ...base, dispatch: d } as JobContext<typeof d>);
      signal.throwIfAborted();
      log.info("job succeeded", { ms: Math.round(performance.now() - started), timings: result.timings });
      await link.succeeded(result);
    } catch (err) {
      if (signal.aborted) {
        const reason = signal.reason as JobStop;
        log.info("job stopped", { kind: reason?.kind, reason: reason?.message, ms: Math.round(performance.now() - started) });
        return;
      }
      const failure = toFailure(err, d.kind);
      log.warn("job failed", {
        code: failure.code,
        retryable: failure.retryable,
        detail: failure.detail ?? failure.message,
        ms: Math.round(performance.now() - started),
      });
      await link.failed({ code: failure.code, message: failure.message, retryable: failure.retryable });
    } finally {
      link.close();
      if (workDir) await rm(workDir, { recursive: true, force: true }).catch((err) => log.warn("work dir not removed", { error: err }));
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

function toFailure(err: unknown, kind: Dispatch["kind"]): JobFailure {
  if (err instanceof JobFailure) return err;
  const detail = (err as Error)?.stack ?? String(err);
  return new JobFailure("internal_error", kind === "avatar" ? AVATAR_MESSAGES.internal_error : INTERNAL_ERROR, true, detail);
}

/** What a log line may say about the sources: host and path, never the (signed) query. */
function sourceFields(d: Dispatch): Record<string, unknown> {
  const strip = (u: string | undefined) => {
    if (!u) return undefined;
    try {
      const x = new URL(u);
      return `${x.protocol}//${x.host}${x.pathname}`;
    } catch {
      return "(invalid url)";
    }
  };
  return d.kind === "avatar"
    ? { imageUrl: strip(d.imageUrl) }
    : { audioUrl: strip(d.audioUrl), backgroundUrl: strip(d.backgroundUrl), settings: d.settings };
}
