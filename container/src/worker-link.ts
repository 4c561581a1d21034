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
 */
import { createReadStream, createWriteStream } from "node:fs";
import { stat, unlink } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RendererConfig } from "./config";
import { type Logger, redactUrl } from "./jobs/log";

export interface JobError {
  code: string;
  message: string;
  retryable: boolean;
  /** Failed events: why, as a code of @avatar-video/contract's AVATAR_REASONS (Avatar jobs). */
  reason?: string;
  /** Failed events: one sentence for the client with the measured value and the rule. */
  detail?: string;
}

export type StopKind =
  /** The Worker answered a progress event with `{abort}` (e.g. access revoked before rendering). */
  | "worker_abort"
  /** The Worker refused this attempt (stale attempt, token rejected, job unknown or already ended). */
  | "fenced"
  /** A newer attempt of the same job was dispatched to this renderer. */
  | "superseded"
  /** The renderer is shutting down (SIGTERM); the Worker's sweep dispatches the job again. */
  | "shutdown";

/** The reason a job's AbortSignal carries when the job must stop without reporting anything more. */
export class JobStop extends Error {
  constructor(
    readonly kind: StopKind,
    message: string,
    readonly abort?: JobError,
  ) {
    super(message);
    this.name = "JobStop";
  }
}

/** A callback or object transfer that failed for good (after retries), and the job was not stopped. */
export class LinkError extends Error {
  constructor(
    message: string,
    /** Set when the Worker answered with this HTTP status. */
    readonly status?: number,
    /** A failure that retrying cannot fix (e.g. the object is over the size limit). */
    readonly permanent = false,
  ) {
    super(message);
    this.name = "LinkError";
  }
}

export interface JobAddress {
  jobId: string;
  attempt: number;
  callbackUrl: string;
  token: string;
}

type LinkConfig = RendererConfig["link"];

export interface MultipartOptions {
  /** Files larger than this go up in parts. */
  thresholdBytes: number;
  /** Size of every part but the last (the Worker accepts 5 MiB to 100 MiB). */
  partBytes: number;
}
const MiB = 1024 * 1024;
export const MULTIPART: MultipartOptions = { thresholdBytes: 100 * MiB, partBytes: 64 * MiB };

type Method = "GET" | "PUT" | "POST" | "DELETE";
type Body = { contentType: string; size: number; source: () => NodeJS.ReadableStream | Buffer };

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.href;
}

const jsonBody = (value: unknown): Body => {
  const data = Buffer.from(JSON.stringify(value));
  return { contentType: "application/json", size: data.length, source: () => data };
};

const FENCING = new Set([401, 403, 404, 409, 410]);
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(t), reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
  });

/**
 * The job's signal plus a deadline, on a plain timer. (A composite with AbortSignal.timeout() can be
 * garbage-collected before it fires on Node 20: a Worker that never answers then hangs the request,
 * and the job with it.) `clear()` once the exchange is over.
 */
function withDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const c = new AbortController();
  const onAbort = () => c.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const t = setTimeout(() => c.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  return {
    signal: c.signal,
    clear: () => {
      clearTimeout(t);
      signal.removeEventListener("abort", onAbort);
    },
  };
}

function retriable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export class WorkerLink {
  private stage: string | undefined;
  private beat: NodeJS.Timeout | undefined;
  private beating = false;
  private sending = 0;
  /** Set once a terminal event was sent (or the job stopped): heartbeats end, nothing else is sent. */
  private finished = false;

  constructor(
    private readonly job: JobAddress,
    private readonly controller: AbortController,
    private readonly cfg: LinkConfig,
    private readonly heartbeatMs: number,
    private readonly log: Logger,
  ) {
    controller.signal.addEventListener("abort", () => this.stopHeartbeat(), { once: true });
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
      for (let i = 0; ; i++) {
        this.signal.throwIfAborted();
        let status: number;
        let text = "";
        const limit = withDeadline(this.signal, this.cfg.requestTimeoutMs);
        try {
          const res = await fetch(this.job.callbackUrl, {
            method: "POST",
            headers: { authorization: `Bearer ${this.job.token}`, "content-type": "application/json" },
            body,
            signal: limit.signal,
          });
          status = res.status;
          text = await res.text().catch(() => "");
        } catch (err) {
          if (this.signal.aborted) throw this.signal.reason;
          if (i >= retries) throw new LinkError(`callback failed: ${(err as Error).message}`);
          await this.backoff(i);
          continue;
        } finally {
          limit.clear();
        }
        if (status >= 200 && status < 300) {
          this.handleAnswer(event, text);
          return;
        }
        if (FENCING.has(status)) {
          this.stop(new JobStop("fenced", `the Worker answered ${status} to a ${String(event.type)} event`));
          throw this.signal.reason;
        }
        if (!retriable(status) || i >= retries) throw new LinkError(`callback answered ${status}`, status);
        await this.backoff(i);
      }
    } finally {
      this.sending--;
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

  private backoff(i: number): Promise<void> {
    const base = Math.min(this.cfg.backoffMaxMs, this.cfg.backoffMs * 2 ** i);
    return sleep(base / 2 + Math.random() * (base / 2), this.signal);
  }

  // ---- objects ---------------------------------------------------------------------------

  /** GETs an object into memory (small artifacts: portrait, rig). */
  async getObject(url: string, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const sink = () =>
      new Writable({
        write(chunk: Buffer, _e, cb) {
          chunks.push(chunk);
          cb();
        },
      });
    await this.withRetries("GET", url, async () => {
      chunks.length = 0;
      await this.transfer("GET", url, { maxBytes, sink: sink() });
    });
    return Buffer.concat(chunks);
  }

  /** GETs an object into a file, streamed. */
  async getObjectToFile(url: string, file: string, maxBytes: number): Promise<number> {
    let bytes = 0;
    await this.withRetries("GET", url, async () => {
      try {
        bytes = await this.transfer("GET", url, { maxBytes, sink: createWriteStream(file) });
      } catch (err) {
        await unlink(file).catch(() => {});
        throw err;
      }
    });
    return bytes;
  }

  /** PUTs a file (streamed, with its Content-Length) or a small buffer. Returns the bytes sent. */
  async putObject(
    url: string,
    body: { file: string } | { data: Buffer },
    contentType: string,
    multipart: MultipartOptions = MULTIPART,
  ): Promise<number> {
    const size = "file" in body ? (await stat(body.file)).size : body.data.length;
    if ("file" in body && size > multipart.thresholdBytes) return this.putMultipart(url, body.file, size, multipart.partBytes);
    await this.exchange("PUT", url, { contentType, size, source: () => ("file" in body ? createReadStream(body.file) : body.data) });
    return size;
  }

  /**
   * Multipart upload (workers/routes/internal-multipart.ts): create, the parts in order (each a ranged
   * read of the file, retried on its own), complete. A failure that is not a stop abandons the upload.
   */
  private async putMultipart(url: string, file: string, size: number, partBytes: number): Promise<number> {
    const created = JSON.parse(await this.exchange("POST", withQuery(url, { uploads: "" }), jsonBody({ size, partBytes }))) as {
      uploadId: string;
    };
    const uploadId = created.uploadId;
    try {
      const parts: { partNumber: number; etag: string }[] = [];
      for (let n = 1, start = 0; start < size; n++, start += partBytes) {
        const end = Math.min(size, start + partBytes);
        const answer = await this.exchange("PUT", withQuery(url, { uploadId, partNumber: String(n) }), {
          contentType: "application/octet-stream",
          size: end - start,
          source: () => createReadStream(file, { start, end: end - 1 }),
        });
        parts.push({ partNumber: n, etag: (JSON.parse(answer) as { etag: string }).etag });
      }
      await this.exchange("POST", withQuery(url, { uploadId }), jsonBody({ parts }));
    } catch (err) {
      if (!this.signal.aborted) await this.exchange("DELETE", withQuery(url, { uploadId })).catch(() => {});
      throw err;
    }
    return size;
  }

  /** One request to an object URL, with retries; resolves with the answer's text (GET excluded). */
  private async exchange(method: Exclude<Method, "GET">, url: string, body?: Body): Promise<string> {
    let text = "";
    await this.withRetries(method, url, async () => {
      await this.transfer(method, url, { ...body, answer: (t) => (text = t) });
    });
    return text;
  }

  private async withRetries(method: string, url: string, run: () => Promise<void>): Promise<void> {
    for (let i = 0; ; i++) {
      this.signal.throwIfAborted();
      try {
        await run();
        return;
      } catch (err) {
        if (this.signal.aborted) throw this.signal.reason;
        const status = err instanceof LinkError ? err.status : undefined;
        if (status !== undefined && FENCING.has(status) && status !== 404) {
          this.stop(new JobStop("fenced", `the Worker answered ${status} to ${method} ${redactUrl(url)}`));
          throw this.signal.reason;
        }
        const again = status === undefined ? !(err instanceof LinkError && err.permanent) : retriable(status);
        if (!again || i >= this.cfg.retries) throw err;
        this.log.warn("object_transfer_retry", { method, url: redactUrl(url), status, error: err });
        await this.backoff(i);
      }
    }
  }

  /** One HTTP exchange with the Worker's object route. Rejects with LinkError (status set for HTTP answers). */
  private transfer(
    method: Method,
    url: string,
    opts: Partial<Body> & { maxBytes?: number; sink?: Writable; answer?: (text: string) => void },
  ): Promise<number> {
    const u = new URL(url);
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${this.job.token}` };
    if (method !== "GET") {
      if (opts.contentType) headers["content-type"] = opts.contentType;
      headers["content-length"] = String(opts.size ?? 0);
    }
    return new Promise<number>((resolve, reject) => {
      let settled = false;
      const done = (err?: unknown, bytes = 0) => {
        if (settled) return;
        settled = true;
        this.signal.removeEventListener("abort", onAbort);
        if (err) reject(err instanceof LinkError || this.signal.aborted ? err : new LinkError(`${method} failed: ${(err as Error).message}`));
        else resolve(bytes);
      };
      const req = (u.protocol === "https:" ? https : http).request(u, { method, headers });
      const onAbort = () => req.destroy(this.signal.reason as Error);
      this.signal.addEventListener("abort", onAbort, { once: true });
      req.setTimeout(this.cfg.objectIdleTimeoutMs, () => req.destroy(new LinkError(`${method} idle for ${this.cfg.objectIdleTimeoutMs} ms`)));
      req.on("error", (err) => done(this.signal.aborted ? this.signal.reason : err));
      req.on("response", (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          res.resume();
          done(new LinkError(`${method} ${redactUrl(url)} answered ${status}`, status));
          if (method !== "GET") req.destroy(); // answered before the body was sent: stop sending it
          return;
        }
        if (method !== "GET") {
          // The answer of an upload step is small JSON (an upload id, a part's etag): kept, capped.
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => void (text.length < 65_536 && (text += chunk)));
          res.on("end", () => (opts.answer?.(text), done(undefined, opts.size ?? 0)));
          res.on("error", (err) => done(err));
          return;
        }
        const max = opts.maxBytes ?? Infinity;
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > max) {
          res.destroy();
          return done(new LinkError(`object exceeds ${max} bytes (declared ${declared})`, undefined, true));
        }
        let bytes = 0;
        const limiter = new Transform({
          transform(chunk: Buffer, _e, cb) {
            bytes += chunk.length;
            if (bytes > max) cb(new LinkError(`object exceeds ${max} bytes`, undefined, true));
            else cb(null, chunk);
          },
        });
        pipeline(res, limiter, opts.sink!).then(
          () => done(undefined, bytes),
          (err) => done(this.signal.aborted ? this.signal.reason : err),
        );
      });
      if (opts.source) {
        const src = opts.source();
        if (Buffer.isBuffer(src)) req.end(src);
        else pipeline(src, req).catch((err) => done(this.signal.aborted ? this.signal.reason : err));
      } else {
        req.end();
      }
    });
  }
}
