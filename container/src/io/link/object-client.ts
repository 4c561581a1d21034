/**
 * A job's object transfers at the Worker's signed object URLs (workers/pipeline/internal/routes*.ts): GET into memory
 * or a file, PUT of a file or buffer, and the multipart upload of large files. Every request is retried on
 * its own (retry.ts); a fencing answer (except 404, which the caller judges) stops the job.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { stat, unlink } from "node:fs/promises";
import { Writable } from "node:stream";
import type { RendererConfig } from "../config";
import { type Logger, redactUrl } from "../log-event";
import { type Body, type Method, transfer, type TransferOptions } from "./http-exchange";
import { retry } from "./retry";
import { FENCING, JobStop, LinkError, retriable } from "./stops";

export interface MultipartOptions {
  /** Files larger than this go up in parts. */
  thresholdBytes: number;
  /** Size of every part but the last (the Worker accepts 5 MiB to 100 MiB). */
  partBytes: number;
}
const MiB = 1024 * 1024;
export const MULTIPART: MultipartOptions = { thresholdBytes: 100 * MiB, partBytes: 64 * MiB };

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.href;
}

const jsonBody = (value: unknown): Body => {
  const data = Buffer.from(JSON.stringify(value));
  return { contentType: "application/json", size: data.length, source: () => data };
};

export class ObjectClient {
  constructor(
    private readonly token: string,
    private readonly signal: AbortSignal,
    private readonly cfg: RendererConfig["link"],
    private readonly log: Logger,
    /** Ends the job without reporting anything more (the Worker fenced this attempt). */
    private readonly stop: (reason: JobStop) => void,
  ) {}

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
    if ("file" in body && size > multipart.thresholdBytes)
      return this.putMultipart(url, body.file, size, multipart.partBytes);
    await this.exchange("PUT", url, {
      contentType,
      size,
      source: () => ("file" in body ? createReadStream(body.file) : body.data),
    });
    return size;
  }

  /**
   * Multipart upload (workers/pipeline/internal/multipart.ts): create, the parts in order (each a ranged
   * read of the file, retried on its own), complete. A failure that is not a stop abandons the upload.
   */
  private async putMultipart(url: string, file: string, size: number, partBytes: number): Promise<number> {
    const created = JSON.parse(
      await this.exchange("POST", withQuery(url, { uploads: "" }), jsonBody({ size, partBytes })),
    ) as {
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

  private withRetries(method: string, url: string, run: () => Promise<void>): Promise<void> {
    const attempt = () =>
      run().catch((err: unknown) => {
        const status = err instanceof LinkError ? err.status : undefined;
        if (status !== undefined && FENCING.has(status) && status !== 404 && !this.signal.aborted) {
          this.stop(new JobStop("fenced", `the Worker answered ${status} to ${method} ${redactUrl(url)}`));
        }
        throw err;
      });
    return retry(attempt, this.cfg, this.signal, (err) => {
      const status = err instanceof LinkError ? err.status : undefined;
      const again = status === undefined ? !(err instanceof LinkError && err.permanent) : retriable(status);
      if (again) this.log.warn("object_transfer_retry", { method, url: redactUrl(url), status, error: err });
      return again;
    });
  }

  private transfer(method: Method, url: string, opts: TransferOptions): Promise<number> {
    return transfer(method, url, opts, {
      token: this.token,
      signal: this.signal,
      idleTimeoutMs: this.cfg.objectIdleTimeoutMs,
    });
  }
}
