import type { components } from "./openapi.js";

/** The API's error codes, plus the two the SDK gives when no answer came: `connection_error` and `timeout`. */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"] | "connection_error" | "timeout";

export interface AvatarVideoErrorInit {
  /** HTTP status; undefined when no answer came (connection error, timeout). */
  status?: number;
  code: ErrorCode | (string & {});
  message: string;
  requestId?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/** Statuses a repeated request may get past: a timed-out request, rate limits and transient server or gateway failures. */
export const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Every failed call: a non-2xx answer (with the API's code and request ID), a lost connection or a timeout. */
export class AvatarVideoError extends Error {
  override readonly name = "AvatarVideoError";
  readonly status: number | undefined;
  readonly code: AvatarVideoErrorInit["code"];
  /** Identifies the HTTP request (quote it to support); from the error envelope, else the X-Request-ID header. */
  readonly requestId: string | undefined;
  /** Whether the same request may succeed later (408, 429, 500, 502, 503, 504, connection errors and timeouts). */
  readonly retryable: boolean;
  /** The answer's Retry-After, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(init: AvatarVideoErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.status === undefined || RETRYABLE_STATUSES.has(init.status);
  }

  /** The error of a non-2xx answer whose body (`{ error: { code, message, requestId } }` or anything else) is read. */
  static fromResponse(response: Response, body: unknown): AvatarVideoError {
    const envelope = (body as Partial<components["schemas"]["Error"]> | undefined)?.error;
    return new AvatarVideoError({
      status: response.status,
      code: envelope?.code ?? `http_${response.status}`,
      message: envelope?.message ?? `HTTP ${response.status} ${response.statusText}`.trim(),
      requestId: envelope?.requestId ?? response.headers.get("X-Request-ID") ?? undefined,
      retryAfterMs: retryAfterMs(response.headers.get("Retry-After")),
    });
  }
}

/** A `Retry-After` header (delta-seconds or HTTP date) in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
