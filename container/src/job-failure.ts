import { JOB_FAILURES, UNEXPECTED_FAILURE_CODE, type JobKind } from "@avatar-video/contract";

/**
 * A job ends in `failed` with a spec failure code. Thrown anywhere in the renderer; the job runner
 * turns it into the `failed` event. `retryable` is true only where resubmitting may succeed.
 */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    /** Internal detail for logs only; never sent to API clients. */
    readonly detail?: string,
    /**
     * What the client is told beyond the code: `reason` (Avatar jobs: a code of @avatar-video/contract's
     * AVATAR_REASONS) and `clientDetail`, one sentence with the measured value and the rule.
     */
    readonly explain?: { reason?: string; clientDetail?: string },
  ) {
    super(message);
    this.name = "JobFailure";
  }

  get reason(): string | undefined {
    return this.explain?.reason;
  }

  get clientDetail(): string | undefined {
    return this.explain?.clientDetail;
  }

  /** The `error` of the `failed` event (docs/architecture.md). */
  toEventError(): { code: string; message: string; retryable: boolean; reason?: string; detail?: string } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.clientDetail ? { detail: this.clientDetail } : {}),
    };
  }
}

/**
 * Something broke on our side (an exception, an upload that kept failing): the kind's code for unexpected
 * failures with the shared table's message, retryable. `detail` goes to the logs only.
 */
export function unexpectedFailure(kind: JobKind, detail: string): JobFailure {
  const code = UNEXPECTED_FAILURE_CODE[kind];
  const entry: { message: string } = (JOB_FAILURES[kind] as Record<string, { message: string }>)[code];
  return new JobFailure(code, entry.message, true, detail);
}
