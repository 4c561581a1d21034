/**
 * SSRF-safe download of a caller-supplied media source (Node only).
 *
 * The address policy is applied to the address actually connected to: literal-IP hosts are checked
 * before connecting, DNS names through a `lookup` hook that checks every answer and hands exactly
 * those answers to the socket (no second resolution, so no DNS rebinding). Redirects are followed by
 * hand and every hop goes through the same checks. No caller headers, cookies or credentials are
 * ever sent; size and time limits are enforced while streaming.
 */
import { createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Allowlist, checkUrlSyntax, EMPTY_ALLOWLIST, isAllowlisted } from "@avatar-video/contract";
import { checkedLookup, type ResolveAll, systemResolve } from "./checked-lookup";
import { FetchError } from "./fetch-error";

export { FetchError, type FetchErrorKind } from "./fetch-error";
export type { ResolveAll, ResolvedAddress } from "./checked-lookup";

export interface SafeFetchOptions {
  maxBytes: number;
  /** Deadline for the whole transfer, all redirect hops and the body included. */
  totalTimeoutMs: number;
  /** Per hop: time from starting the request until the response headers arrive. */
  firstByteTimeoutMs?: number;
  /** Redirects followed at most (default 5); one more is `too_many_redirects`. */
  maxRedirects?: number;
  allowlist?: Allowlist;
  /** Aborting rejects with `signal.reason` as is (not a FetchError): the caller knows why it stopped. */
  signal?: AbortSignal;
  /** Stream the body to this path instead of memory (large audio). Removed again on failure. */
  toFile?: string;
  /** Defaults to dns.lookup(all: true). */
  resolve?: ResolveAll;
}

interface FetchedMeta {
  status: number;
  /** Media type lowercased without parameters; null when the header is missing. Callers validate. */
  contentType: string | null;
  finalUrl: string;
  bytes: number;
}
export interface FetchedBuffer extends FetchedMeta {
  body: Buffer;
}
export interface FetchedFile extends FetchedMeta {
  path: string;
}

export const USER_AGENT = "avatar-video-renderer/1 (media source fetcher)";
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** URL for error messages: signed query strings are credentials and stay out of logs. */
function redact(u: string | URL): string {
  try {
    const url = typeof u === "string" ? new URL(u) : u;
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

/** One fetch: its first failure wins, and aborting tears down whatever request is in flight. */
class Transfer {
  failure: unknown;
  private current?: { req: http.ClientRequest; res?: http.IncomingMessage };

  attach(req: http.ClientRequest, res?: http.IncomingMessage): void {
    this.current = { req, res };
    // Late socket errors after we stopped listening must not crash the process; the cause is recorded.
    req.on("error", () => {});
    res?.on("error", () => {});
    if (this.failure !== undefined) this.abort(this.failure); // the deadline passed between hops
  }
  record(err: unknown): void {
    if (this.failure === undefined) this.failure = err;
  }
  abort(err: unknown): void {
    this.record(err);
    // Destroying the socket is what actually stops a stalled or trickling server.
    this.current?.res?.destroy(err as Error);
    this.current?.req.destroy(err as Error);
  }
  /** The error to report: the recorded cause beats the socket noise it produced. */
  explain(err: unknown): unknown {
    const e = this.failure ?? err;
    if (e instanceof FetchError || this.failure !== undefined) return e;
    const code = (e as NodeJS.ErrnoException)?.code;
    return new FetchError("transfer_failed", `${code ?? "error"}: ${(e as Error)?.message ?? String(e)}`);
  }
}

export function safeFetch(url: string, opts: SafeFetchOptions & { toFile: string }): Promise<FetchedFile>;
export function safeFetch(url: string, opts: SafeFetchOptions & { toFile?: undefined }): Promise<FetchedBuffer>;
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<FetchedBuffer | FetchedFile> {
  opts.signal?.throwIfAborted();
  const t = new Transfer();
  const deadline = setTimeout(
    () => t.abort(new FetchError("timeout", `transfer not finished within ${opts.totalTimeoutMs} ms`)),
    opts.totalTimeoutMs,
  );
  const onAbort = () => t.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await fetchHops(url, opts, t);
  } catch (err) {
    if (opts.toFile) await unlink(opts.toFile).catch(() => {});
    throw t.explain(err);
  } finally {
    clearTimeout(deadline);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

async function fetchHops(start: string, opts: SafeFetchOptions, t: Transfer): Promise<FetchedBuffer | FetchedFile> {
  const allowlist = opts.allowlist ?? EMPTY_ALLOWLIST;
  const maxRedirects = opts.maxRedirects ?? 5;
  let current = start;
  for (let redirects = 0; ; redirects++) {
    const check = checkUrlSyntax(current, allowlist); // also refuses non-public literal-IP hosts
    if (!check.ok) {
      throw new FetchError(
        check.kind === "address" ? "refused_destination" : "bad_url",
        `${redact(current)}: ${check.rule}`,
      );
    }
    const url = check.url;
    const res = await requestHeaders(url, opts, allowlist, t);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.destroy(); // the redirect body is never read
      if (redirects >= maxRedirects) throw new FetchError("too_many_redirects", `more than ${maxRedirects} redirects`);
      try {
        current = new URL(location, url).href;
      } catch {
        throw new FetchError("bad_url", `unparsable redirect Location from ${redact(url)}`);
      }
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      throw new FetchError("http_status", `${redact(url)} answered ${status}`, status);
    }
    return readBody(res, url, status, opts, t);
  }
}

/** Sends one GET and resolves once the response headers are in. */
function requestHeaders(
  url: URL,
  opts: SafeFetchOptions,
  allowlist: Allowlist,
  t: Transfer,
): Promise<http.IncomingMessage> {
  const allowlisted = isAllowlisted(url, allowlist);
  const resolve = opts.resolve ?? systemResolve;
  return new Promise((resolvePromise, reject) => {
    const req = (url.protocol === "https:" ? https : http).request({
      method: "GET",
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      // Fixed headers only: nothing of the caller's, no Authorization or Cookie, on any hop.
      headers: { "user-agent": USER_AGENT, accept: "*/*", "accept-encoding": "identity" },
      agent: false, // a fresh socket per hop: no pooled connection made under other rules is reused
      lookup: checkedLookup(resolve, allowlisted, t) as unknown as net.LookupFunction,
    });
    t.attach(req);
    const firstByte =
      opts.firstByteTimeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              t.abort(new FetchError("timeout", `no response from ${url.host} within ${opts.firstByteTimeoutMs} ms`)),
            opts.firstByteTimeoutMs,
          );
    req.once("response", (res) => {
      clearTimeout(firstByte);
      t.attach(req, res);
      resolvePromise(res);
    });
    req.on("error", (err) => {
      clearTimeout(firstByte);
      reject(t.explain(err));
    });
    req.end();
  });
}

async function readBody(
  res: http.IncomingMessage,
  url: URL,
  status: number,
  opts: SafeFetchOptions,
  t: Transfer,
): Promise<FetchedBuffer | FetchedFile> {
  const declared = res.headers["content-length"];
  if (declared !== undefined && Number(declared) > opts.maxBytes) {
    res.destroy();
    throw new FetchError("too_large", `declared ${declared} bytes, limit ${opts.maxBytes}`);
  }
  // Count what actually arrives; the header is only used to fail early.
  let bytes = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) cb(new FetchError("too_large", `body exceeds ${opts.maxBytes} bytes`));
      else cb(null, chunk);
    },
  });
  const chunks: Buffer[] = [];
  const sink = opts.toFile
    ? createWriteStream(opts.toFile)
    : new Writable({
        write(chunk: Buffer, _enc, cb) {
          chunks.push(chunk);
          cb();
        },
      });
  await pipeline(res, limiter, sink).catch((err) => {
    throw t.explain(err);
  });
  if (bytes === 0) throw new FetchError("empty", `${redact(url)} returned an empty body`);

  const rawType = res.headers["content-type"];
  const contentType = rawType ? rawType.split(";")[0].trim().toLowerCase() || null : null;
  const meta: FetchedMeta = { status, contentType, finalUrl: url.href, bytes };
  return opts.toFile ? { ...meta, path: opts.toFile } : { ...meta, body: Buffer.concat(chunks, bytes) };
}
