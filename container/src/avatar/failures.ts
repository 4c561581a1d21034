/** The Avatar creation failure codes and messages of the spec ("Avatar creation job failure codes"). */
import { JobFailure } from "../job-failure";
import { AVATAR_MESSAGES as M } from "../jobs/failures";

export function invalidImage(detail: string): JobFailure {
  return new JobFailure("invalid_image", M.invalid_image, false, detail);
}

export function imageQualityRejected(detail: string): JobFailure {
  return new JobFailure("image_quality_rejected", M.image_quality_rejected, false, detail);
}

/** After validation: resubmitting helps only when the cause was plausibly transient (e.g. memory). */
export function preprocessFailed(detail: string, retryable: boolean): JobFailure {
  return new JobFailure("preprocess_failed", M.preprocess_failed, retryable, detail);
}

export function avatarGenerationFailed(detail: string): JobFailure {
  return new JobFailure("avatar_generation_failed", M.avatar_generation_failed, false, detail);
}

/** Our fault (e.g. the face models did not load): the same request may well succeed later. */
export function internalError(detail: string): JobFailure {
  return new JobFailure("internal_error", M.internal_error, true, detail);
}

/** Out-of-memory style errors: another attempt on a less busy renderer may succeed. */
export function looksTransient(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name} ${err.message} ${(err as NodeJS.ErrnoException).code ?? ""}` : String(err);
  return /ENOMEM|EMFILE|ENFILE|EAGAIN|out of memory|allocation failed|Cannot allocate/i.test(text);
}
