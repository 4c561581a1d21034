import type { AvatarJob, VideoJob } from "../db/schema";

export const iso = (d: Date) => d.toISOString();

/** Spec messages for failure codes whose stored message is missing. */
const DEFAULT_MESSAGES: Record<string, string> = {
  internal_error: "An unexpected error occurred.",
};

/** `error` only on failed jobs, only from the stored code/message/retryable (never internal detail). */
export function jobError(job: Pick<AvatarJob | VideoJob, "errorCode" | "errorMessage" | "errorRetryable">) {
  if (!job.errorCode) return undefined;
  return {
    code: job.errorCode,
    message: job.errorMessage ?? DEFAULT_MESSAGES[job.errorCode] ?? "The job failed.",
    retryable: job.errorRetryable ?? false,
  };
}
