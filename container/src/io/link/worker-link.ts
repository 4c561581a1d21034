/**
 * The renderer's side of the Worker ⇄ renderer contract (docs/architecture.md): events to the job's
 * callbackUrl and object transfers at the signed object URLs, all with the per-job Bearer token.
 *
 * - Network errors, 408, 429 and 5xx are retried with exponential backoff (jittered).
 * - An answer `{abort: {code, message, retryable}}` to a progress event, or a fencing answer
 *   (401/403/404/409/410: the attempt is stale, the token is no longer valid or the job is gone),
 *   stops the job: the job's AbortController is aborted with a `JobStop` and nothing more is sent.
 * - Objects are streamed from/to files; nothing of a large object is held in memory. A file above
 *   MULTIPART.thresholdBytes goes up as a multipart upload (parts of partBytes, each its own request
 *   with its own retries), so no request carries more than the Worker platform's 100 MiB.
 *
 * Here: events and the heartbeat. Object transfers: link/object-client.ts over link/http-exchange.ts;
 * retries: link/retry.ts; stops, link errors and fencing answers: link/stops.ts.
 */
import type { RendererConfig } from "../config";
import type { Logger } from "../log-event";
import { MULTIPART, ObjectClient, type MultipartOptions } from "./object-client";
import { retry, withDeadline } from "./retry";
import { FENCING, type JobError, JobStop, LinkError, retriable } from "./stops";

export { JobStop, LinkError, MULTIPART, type JobError, type MultipartOptions };
export type { StopKind } from "./stops";

export interface JobAddress {
  jobId: string;
  attempt: number;
  callbackUrl: string;
  token: string;
}

export class WorkerLink {
  private stage: string | undefined;
  private beat: NodeJS.Timeout | undefined;
  private beating = false;
  private sending = 0;
  /** Set once a terminal event was sent (or the job stopped): heartbeats end, nothing else is sent. */
  private finished = false;
  private readonly objects: ObjectClient;

  constructor(
    private readonly job: JobAddress,
    private readonly controller: AbortController,
    private readonly cfg: RendererConfig["link"],
    private readonly heartbeatMs: number,
    private readonly log: Logger,
  ) {
    controller.signal.addEventListener("abort", () => this.stopHeartbeat(), { once: true });
    this.objects = new ObjectClient(job.token, controller.signal, cfg, log, (reason) => this.stop(reason));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get currentStage(): string | undefined {
    return this.stage;
  }

  /**
   * Reports a stage (and restarts the heartbeat with it). Resolves once the Worker has the event or
   * delivery failed for good (progress is best effort: a lost stage is repeated by the next beat).
   * Rejects with the JobStop if the Worker answered `{abort}` or fenced the attempt.
   */
  async progress(stage: string): Promise<void> {
    this.signal.throwIfAborted();
    this.stage = stage;
    this.scheduleBeat();
    try {
      await this.send({ type: "progress", stage }, this.cfg.retries);
    } catch (err) {
      if (this.signal.aborted) throw this.signal.reason;
      this.log.warn("progress_not_delivered", { stage, error: err });
    }
    this.signal.throwIfAborted();
  }

  async succeeded(result: unknown): Promise<void> {
    await this.terminal({ type: "succeeded", result });
  }

  async failed(error: JobError): Promise<void> {
    await this.terminal({ type: "failed", error });
  }

  /** The run ends handing the video over to `segments` runs of its own (a split render). */
  async split(segments: number): Promise<void> {
    await this.terminal({ type: "split", segments });
  }

  /** Ends heartbeats; used when the job ends without a terminal event (stopped). */
  close(): void {
    this.finished = true;
    this.stopHeartbeat();
  }

  private async terminal(event: Record<string, unknown>): Promise<void> {
    if (this.signal.aborted || this.finished) return;
    this.finished = true;
    this.stopHeartbeat();
    try {
      // A terminal event matters more than a progress event: retry twice as long before giving up
      // (then the Worker's sweep notices the silent job and dispatches it again).
      await this.send(event, this.cfg.retries * 2);
    } catch (err) {
      if (!this.signal.aborted) this.log.error("terminal_event_not_delivered", { type: event.type, error: err });
    }
  }

  // ---- heartbeat -------------------------------------------------------------------------

  private scheduleBeat(): void {
    if (this.finished || this.signal.aborted) return;
    clearTimeout(this.beat);
    this.beat = setTimeout(() => void this.heartbeat(), this.heartbeatMs);
    this.beat.unref?.();
  }

  private stopHeartbeat(): void {
    clearTimeout(this.beat);
    this.beat = undefined;
  }

  private async heartbeat(): Promise<void> {
    if (this.finished || this.signal.aborted || this.stage === undefined) return;
    this.scheduleBeat(); // the cadence does not depend on how long the Worker takes to answer
    if (this.beating || this.sending > 0) return; // an event is in flight: that is the beat
    this.beating = true;
    try {
      await this.send({ type: "progress", stage: this.stage }, 0);
    } catch (err) {
      if (!this.signal.aborted) this.log.debug("heartbeat_not_delivered", { error: err });
    } finally {
      this.beating = false;
    }
  }

  // ---- events ----------------------------------------------------------------------------

  private async send(event: Record<string, unknown>, retries: number): Promise<void> {
    const body = JSON.stringify({ ...event, jobId: this.job.jobId, attempt: this.job.attempt });
    this.sending++;
    try {
      const answer = await retry(
        () => this.post(body),
        { ...this.cfg, retries },
        this.signal,
        (err) => {
          const s = err instanceof LinkError ? err.status : undefined;
          return s === undefined || retriable(s);
        },
      );
      if (FENCING.has(answer.status)) {
        this.stop(new JobStop("fenced", `the Worker answered ${answer.status} to a ${String(event.type)} event`));
        throw this.signal.reason;
      }
      this.handleAnswer(event, answer.text);
    } finally {
      this.sending--;
    }
  }

  /** One POST of an event: 2xx and fencing answers resolve; others reject with LinkError (status set). */
  private async post(body: string): Promise<{ status: number; text: string }> {
    const limit = withDeadline(this.signal, this.cfg.requestTimeoutMs);
    try {
      let res: Response;
      try {
        res = await fetch(this.job.callbackUrl, {
          method: "POST",
          headers: { authorization: `Bearer ${this.job.token}`, "content-type": "application/json" },
          body,
          signal: limit.signal,
        });
      } catch (err) {
        throw new LinkError(`callback failed: ${(err as Error).message}`);
      }
      const text = await res.text().catch(() => "");
      if ((res.status >= 200 && res.status < 300) || FENCING.has(res.status)) return { status: res.status, text };
      throw new LinkError(`callback answered ${res.status}`, res.status);
    } finally {
      limit.clear();
    }
  }

  private handleAnswer(event: Record<string, unknown>, text: string): void {
    if (event.type !== "progress" || !text) return;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      return;
    }
    const abort = (answer as { abort?: unknown } | null)?.abort;
    if (!abort) return;
    const a = abort as Partial<JobError>;
    const error: JobError | undefined =
      typeof a.code === "string"
        ? { code: a.code, message: typeof a.message === "string" ? a.message : "", retryable: a.retryable === true }
        : undefined;
    this.stop(new JobStop("worker_abort", `the Worker aborted the job${error ? ` (${error.code})` : ""}`, error));
  }

  private stop(reason: JobStop): void {
    this.finished = true;
    this.stopHeartbeat();
    if (!this.signal.aborted) {
      this.log.info("job_stopped_by_worker", { kind: reason.kind, code: reason.abort?.code });
      this.controller.abort(reason);
    }
  }

  // ---- objects (link/object-client.ts) ---------------------------------------------------

  /** GETs an object into memory (small artifacts: portrait, rig). */
  getObject(url: string, maxBytes: number): Promise<Buffer> {
    return this.objects.getObject(url, maxBytes);
  }

  /** GETs an object into a file, streamed. */
  getObjectToFile(url: string, file: string, maxBytes: number): Promise<number> {
    return this.objects.getObjectToFile(url, file, maxBytes);
  }

  /** PUTs a file (streamed; multipart above `multipart.thresholdBytes`) or a small buffer. Returns the bytes sent. */
  putObject(
    url: string,
    body: { file: string } | { data: Buffer },
    contentType: string,
    multipart: MultipartOptions = MULTIPART,
  ): Promise<number> {
    return this.objects.putObject(url, body, contentType, multipart);
  }
}
