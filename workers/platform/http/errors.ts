import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";

/**
 * The spec's Errors table: every HTTP error code with its status, default message and when it is answered.
 * The error envelope's `code` enum, the OpenAPI error responses (workers/api/openapi/components.ts) and the
 * helpers below all read this one table; changing a message or a description is a one-line change here.
 * (A few answers use another status with one of these codes, e.g. 426 invalid_request for a missing
 * WebSocket upgrade or 413 for an oversized upload; `status` is the code's usual status.)
 */
export const HTTP_ERRORS = {
  invalid_request: {
    status: 400,
    message: "The request is invalid.",
    when: "malformed JSON, wrong types, missing fields, invalid IDs, invalid settings or page tokens",
  },
  unauthorized: {
    status: 401,
    message: "Unauthorized.",
    when: "missing or mismatched credentials, revoked App or inactive account (message: Unauthorized.)",
  },
  insufficient_avatar_units: {
    status: 402,
    message: "No Avatar Creations are left on this account.",
    when: "no Avatar Creations left",
  },
  forbidden: {
    status: 403,
    message: "Forbidden.",
    when: "access not configured, creation disabled, or Avatar access denied",
  },
  not_found: { status: 404, message: "Not found.", when: "the resource does not exist or belongs to another account" },
  method_not_allowed: {
    status: 405,
    message: "Method not allowed.",
    when: "the path exists but not with this method (Allow lists the methods)",
  },
  conflict: { status: 409, message: "Conflict.", when: "the requestId already identifies different normalized input" },
  rate_limit_exceeded: {
    status: 429,
    message: "Rate limit exceeded.",
    when: "a read limit or creation window is full; wait Retry-After seconds",
  },
  concurrency_limit_exceeded: {
    status: 429,
    message: "Too many active jobs.",
    when: "too many Avatar jobs are active at once; wait Retry-After seconds",
  },
  internal_error: {
    status: 500,
    message: "An unexpected error occurred. Retry with bounded backoff.",
    when: "unexpected failure; retry with bounded backoff",
  },
  unsupported_input: {
    status: 501,
    message: "This feature is not supported by this version.",
    when: "a feature this version does not offer (callbacks, text-to-speech, uploads)",
  },
  service_unavailable: {
    status: 503,
    message: "The service is temporarily unavailable; retry.",
    when: "transient failure or a download link could not be produced; retry",
  },
} as const satisfies Record<string, { status: ContentfulStatusCode; message: string; when: string }>;

/** Stable machine-readable codes of the spec's Errors table. */
export type ErrorCode = keyof typeof HTTP_ERRORS;
export const ERROR_CODES = Object.keys(HTTP_ERRORS) as [ErrorCode, ...ErrorCode[]];

/**
 * Thrown anywhere in a request; `onError` renders it in the error envelope. Made only by `apiError` and the
 * helpers below, so a code's status comes from the table.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ApiErrorOptions {
  headers?: Record<string, string>;
  /** Only for the few answers outside the code's usual status (411, 413, 416, 426 invalid_request). */
  status?: ContentfulStatusCode;
}

/** An ApiError with the code's status from the table and, unless given, its default message. */
export const apiError = (code: ErrorCode, message: string = HTTP_ERRORS[code].message, options: ApiErrorOptions = {}) =>
  new ApiError(options.status ?? HTTP_ERRORS[code].status, code, message, options.headers);

export const invalid = (message: string) => apiError("invalid_request", message);
export const unauthorized = () => apiError("unauthorized");
export const forbidden = (message: string) => apiError("forbidden", message);
export const notFound = (message: string) => apiError("not_found", message);
export const conflict = (message: string) => apiError("conflict", message);
export const internalError = () => apiError("internal_error");

/** The spec's error envelope; `requestId` equals the X-Request-ID header. */
export function errorResponse(c: Context<AppEnv>, err: ApiError) {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json({ error: { code: err.code, message: err.message, requestId: c.get("requestId") } }, err.status);
}
