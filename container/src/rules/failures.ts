/**
 * How a renderer job fails: JobFailure (a job ends `failed` with a code of the shared table,
 * @avatar-video/contract job-failures.ts, and `retryable` from it unless the thrower knows better), the
 * kind's unexpected failure, and which errors are worth another attempt. The builders that name the input
 * and the rule: avatar-refusals.ts (the Avatar's image and its processing), fetch-failures.ts (downloads of
 * a job's inputs). A one-off failure is thrown where it happens: `new JobFailure("code", "What happened.")`.
 */
import { failureEntry, type JobKind, UNEXPECTED_FAILURE_CODE } from "@avatar-video/contract";

/** The table's `retryable` for a code of either kind (the codes of the two kinds are distinct). */
const defaultRetryable = (code: string) =>
  (failureEntry("avatar", code) ?? failureEntry("video", code))?.retryable ?? false;

export interface JobFailureOptions {
  /** Only where this failure differs from the table's default for its code (e.g. a 404 from a source). */
  retryable?: boolean;
  /** Internal detail for logs only; never sent to API clients. */
  detail?: string;
  /**
   * What the client is told beyond the code: `reason` (Avatar jobs: a code of @avatar-video/contract's
   * AVATAR_REASONS) and `clientDetail`, one sentence with the measured value and the rule.
   */
  explain?: { reason?: string; clientDetail?: string };
}

/**
 * A job ends in `failed` with a spec failure code. Thrown anywhere in the renderer; the job runner
 * turns it into the `failed` event. `retryable` is the failure table's value for the code unless the
 * thrower knows better (true only where resubmitting may succeed).
 */
export class JobFailure extends Error {
  readonly retryable: boolean;
  readonly detail?: string;
  readonly explain?: { reason?: string; clientDetail?: string };

  constructor(
    readonly code: string,
    message: string,
    options: JobFailureOptions = {},
  ) {
    super(message);
    this.name = "JobFailure";
    this.retryable = options.retryable ?? defaultRetryable(code);
    this.detail = options.detail;
    this.explain = options.explain;
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
  return new JobFailure(code, failureEntry(kind, code)!.message, { detail });
}

/** Out-of-memory style errors: another attempt on a less busy renderer may succeed. */
export function looksTransient(err: unknown): boolean {
  const text =
    err instanceof Error ? `${err.name} ${err.message} ${(err as NodeJS.ErrnoException).code ?? ""}` : String(err);
  return /ENOMEM|EMFILE|ENFILE|EAGAIN|out of memory|allocation failed|Cannot allocate/i.test(text);
}
