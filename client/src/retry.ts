import { AvatarVideoError, retryAfterMs, RETRYABLE_STATUSES } from "./errors.js";
import type { RequestHooks } from "./hooks.js";
import { abortable, linkedSignal, sleep } from "./signals.js";

export interface RetryOptions extends RequestHooks {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Bounds each attempt, in milliseconds: connecting, the answer and its body. */
  timeout: number;
  fetch: typeof globalThis.fetch;
}

/** A Retry-After longer than this (an hourly quota) is handed to the caller instead of being slept through. */
const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … (at most 8 s), each scaled by a random 0.5 to 1. */
const backoff = (attempt: number) =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** attempt) * (0.5 + Math.random() / 2);

/** POSTs that cannot do their work twice: video creation with a retry key, and those that create nothing. */
function safeToRepeat(request: Request, body: ArrayBuffer | undefined): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  const path = new URL(request.url).pathname;
  if (path.endsWith("/v1/open/avatar-checks") || path.endsWith("/v1/console/session-tokens")) return true;
  if (!path.endsWith("/v1/open/videos") || !body) return false;
  try {
    return typeof JSON.parse(new TextDecoder().decode(body)).requestId === "string";
  } catch {
    return false;
  }
}

/** Why a fetch failed, as undici tells it (e.g. " (ECONNREFUSED)"), for a message people can act on. */
function reason(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why = inner?.code ?? inner?.message;
  return typeof why === "string" ? ` (${why})` : "";
}

/**
 * One attempt, its body read too (so the timeout covers it and a stalled body can be retried). Raced against
 * the signal: a fetch that misses its abort (a custom one, or Node's once it collected the Request) still ends
 * the attempt on time.
 */
async function send(fetch: RetryOptions["fetch"], outgoing: Request, signal: AbortSignal): Promise<Response> {
  const sent = await abortable(fetch(outgoing), signal);
  const bytes = await abortable(sent.arrayBuffer(), signal);
  return new Response(bytes.byteLength ? bytes : null, {
    status: sent.status,
    statusText: sent.statusText,
    headers: sent.headers,
  });
}

/**
 * A fetch that retries: 429 always (the request was refused before any work); 408, 500, 502, 503, 504, lost
 * connections and timeouts only when repeating cannot create twice (so POST /avatars, which has no retry key,
 * only on 429). Never 409: the retry key names different input, and repeating cannot change that. Waits
 * Retry-After when given, else backs off. Answers with the last response; throws AvatarVideoError when no
 * answer came, or the caller's abort reason.
 */
export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.body ? await request.arrayBuffer() : undefined;
    const repeatable = safeToRepeat(request, body);
    const { method } = request;
    const path = new URL(request.url).pathname;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries;
      options.onRequest?.({ method, path, attempt });
      const started = Date.now();
      const attemptSignal = linkedSignal(request.signal, options.timeout);
      let response: Response;
      try {
        const { signal } = attemptSignal;
        response = await send(
          options.fetch,
          new Request(request.url, { method, headers: request.headers, body, signal }),
          signal,
        );
      } catch (cause) {
        if (request.signal.aborted) throw request.signal.reason;
        const code = attemptSignal.timedOut() ? "timeout" : "connection_error";
        const message =
          code === "timeout"
            ? `no answer within ${options.timeout} ms`
            : `could not reach ${new URL(request.url).origin}${reason(cause)}`;
        const willRetry = !last && repeatable;
        const elapsedMs = Date.now() - started;
        options.onResponse?.({ method, path, attempt, elapsedMs, error: code, willRetry });
        if (!willRetry) throw new AvatarVideoError({ code, message, cause });
        await sleep(backoff(attempt), request.signal);
        continue;
      } finally {
        attemptSignal.done();
      }
      const { status } = response;
      const retry = status === 429 || (repeatable && RETRYABLE_STATUSES.has(status));
      const wait = retryAfterMs(response.headers.get("Retry-After")) ?? backoff(attempt);
      const willRetry = !last && retry && wait <= MAX_RETRY_AFTER_MS;
      const requestId = response.headers.get("X-Request-ID") ?? undefined;
      options.onResponse?.({ method, path, attempt, status, requestId, elapsedMs: Date.now() - started, willRetry });
      if (!willRetry) return response;
      await sleep(wait, request.signal);
    }
  };
}
