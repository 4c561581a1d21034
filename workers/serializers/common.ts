import { isAvatarReason } from "@avatar-video/contract";
import type { AvatarJob, VideoJob } from "../db/schema";

export const iso = (d: Date) => d.toISOString();

/** Spec messages for failure codes whose stored message is missing. */
const DEFAULT_MESSAGES: Record<string, string> = {
  internal_error: "An unexpected error occurred.",
};

/**
 * `error` only on failed jobs, from the stored code/message/retryable and the client-facing reason and
 * detail (never internal detail). Failures stored before migration 0002 have neither.
 */
export function jobError(job: Pick<AvatarJob | VideoJob, "errorCode" | "errorMessage" | "errorRetryable" | "errorReason" | "errorDetail">) {
  if (!job.errorCode) return undefined;
  return {
    code: job.errorCode,
    message: job.errorMessage ?? DEFAULT_MESSAGES[job.errorCode] ?? "The job failed.",
    retryable: job.errorRetryable ?? false,
    ...(job.errorReason && isAvatarReason(job.errorReason) ? { reason: job.errorReason } : {}),
    ...(job.errorDetail ? { detail: job.errorDetail } : {}),
  };
}
