import type { Env } from "../platform/env";
import { type ApiError, apiError } from "../platform/http/errors";
import type { Admission } from "./admission";

/** The account's limiter object: one per account, addressed by the account ID. */
export const limiterFor = (env: Env, accountId: string) => env.ACCOUNT_LIMITER.getByName(accountId);

/** A refused admission as the ApiError to throw (its status from the error table; 429s carry Retry-After). */
export function admissionError(admission: Exclude<Admission, { ok: true }>): ApiError {
  const headers: Record<string, string> = admission.retryAfterSeconds
    ? { "Retry-After": String(admission.retryAfterSeconds) }
    : {};
  return apiError(admission.code, admission.message, { headers });
}
