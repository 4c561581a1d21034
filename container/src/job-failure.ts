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
  ) {
    super(message);
    this.name = "JobFailure";
  }
}
