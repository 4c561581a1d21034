import { type ApiError, apiError } from "../platform/http/errors";

/** Outcome of an admission. A refusal carries the envelope fields to answer with (the status is the code's). */
export type Admission =
  | { ok: true }
  | {
      ok: false;
      code: "insufficient_avatar_units" | "rate_limit_exceeded" | "concurrency_limit_exceeded";
      message: string;
      /** Whole seconds (≥ 1) until the blocking limit frees a slot; absent for 402. */
      retryAfterSeconds?: number;
    };

/** A refused admission as the ApiError to throw (its status from the error table; 429s carry Retry-After). */
export function admissionError(admission: Exclude<Admission, { ok: true }>): ApiError {
  const headers: Record<string, string> = admission.retryAfterSeconds
    ? { "Retry-After": String(admission.retryAfterSeconds) }
    : {};
  return apiError(admission.code, admission.message, { headers });
}
