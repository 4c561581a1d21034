/**
 * One HTTP exchange with the Worker's object route (node:http, streamed both ways): a GET into a sink with a
 * byte ceiling, or a PUT/POST/DELETE whose small JSON answer is kept. Rejects with LinkError (status set for
 * HTTP answers); nothing of a large object is held in memory.
 */
import http from "node:http";
import https from "node:https";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { redactUrl } from "../log-event";
import { LinkError } from "./stops";

export type Method = "GET" | "PUT" | "POST" | "DELETE";

/** A request body: its type, its exact size (sent as Content-Length) and a fresh source for each try. */
export type Body = { contentType: string; size: number; source: () => NodeJS.ReadableStream | Buffer };

export type TransferOptions = Partial<Body> & { maxBytes?: number; sink?: Writable; answer?: (text: string) => void };

export function transfer(
  method: Method,
  url: string,
  opts: TransferOptions,
  ctx: { token: string; signal: AbortSignal; idleTimeoutMs: number },
): Promise<number> {
  const u = new URL(url);
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${ctx.token}` };
  if (method !== "GET") {
    if (opts.contentType) headers["content-type"] = opts.contentType;
    headers["content-length"] = String(opts.size ?? 0);
  }
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const done = (err?: unknown, bytes = 0) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener("abort", onAbort);
      if (err)
        reject(
          err instanceof LinkError || ctx.signal.aborted
            ? err
            : new LinkError(`${method} failed: ${(err as Error).message}`),
        );
      else resolve(bytes);
    };
    const req = (u.protocol === "https:" ? https : http).request(u, { method, headers });
    const onAbort = () => req.destroy(ctx.signal.reason as Error);
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    req.setTimeout(ctx.idleTimeoutMs, () => req.destroy(new LinkError(`${method} idle for ${ctx.idleTimeoutMs} ms`)));
    req.on("error", (err) => done(ctx.signal.aborted ? ctx.signal.reason : err));
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
        (err) => done(ctx.signal.aborted ? ctx.signal.reason : err),
      );
    });
    if (opts.source) {
      const src = opts.source();
      if (Buffer.isBuffer(src)) req.end(src);
      else pipeline(src, req).catch((err) => done(ctx.signal.aborted ? ctx.signal.reason : err));
    } else {
      req.end();
    }
  });
}
