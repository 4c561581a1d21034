import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";

/** Stable machine-readable codes of the spec's Errors table. */
export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "insufficient_avatar_units"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "rate_limit_exceeded"
  | "concurrency_limit_exceeded"
  | "internal_error"
  | "unsupported_input"
  | "service_unavailable";

/** Thrown anywhere in a request; `onError` renders it in the error envelope. */
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

export const invalid = (message: string) => new ApiError(400, "invalid_request", message);
export const unauthorized = () => new ApiError(401, "unauthorized", "Unauthorized.");
export const forbidden = (message: string) => new ApiError(403, "forbidden", message);
export const notFound = (message: string) => new ApiError(404, "not_found", message);

/** The spec's error envelope; `requestId` equals the X-Request-ID header. */
export function errorResponse(c: Context<AppEnv>, err: ApiError) {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json({ error: { code: err.code, message: err.message, requestId: c.get("requestId") } }, err.status);
}
