/** Avatar creation failures after the image was accepted (refusals of the image itself: rejections.ts). */
import type { JobFailure } from "../job-failure";
import { refusal } from "./rejections";

/** After validation: resubmitting helps only when the cause was plausibly transient (e.g. memory). */
export function preprocessFailed(detail: string, retryable: boolean): JobFailure {
  return refusal(
    "preprocess_error",
    retryable
      ? "The image passed every check but the renderer ran short of resources while cropping it; submit it again."
      : "The image passed every check but could not be cropped or encoded.",
    detail,
    retryable,
  );
}

export function avatarGenerationFailed(detail: string): JobFailure {
  return refusal("generation_error", "The face was found but could not be turned into an animatable Avatar.", detail);
}

/** Our fault (e.g. the face models did not load): the same request may well succeed later. */
export function internalError(detail: string): JobFailure {
  return refusal("internal", "An unexpected error occurred on our side; submit the request again.", detail, true);
}

/** Out-of-memory style errors: another attempt on a less busy renderer may succeed. */
export function looksTransient(err: unknown): boolean {
  const text =
    err instanceof Error ? `${err.name} ${err.message} ${(err as NodeJS.ErrnoException).code ?? ""}` : String(err);
  return /ENOMEM|EMFILE|ENFILE|EAGAIN|out of memory|allocation failed|Cannot allocate/i.test(text);
}
