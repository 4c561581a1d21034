/** How a job's conversation with the Worker ends early: a stop (nothing more is sent) or a link error. */
import type { JobErrorBody } from "@avatar-video/contract";

/** The `error` of a failed event, and of a Worker's `{abort}` answer (@avatar-video/contract job-events.ts). */
export type JobError = JobErrorBody;

export type StopKind =
  /** The Worker answered a progress event with `{abort}` (e.g. access revoked before rendering). */
  | "worker_abort"
  /** The Worker refused this attempt (stale attempt, token rejected, job unknown or already ended). */
  | "fenced"
  /** A newer attempt of the same job was dispatched to this renderer. */
  | "superseded"
  /** The renderer is shutting down (SIGTERM); the Worker's sweep dispatches the job again. */
  | "shutdown";

/** The reason a job's AbortSignal carries when the job must stop without reporting anything more. */
export class JobStop extends Error {
  constructor(
    readonly kind: StopKind,
    message: string,
    readonly abort?: JobError,
  ) {
    super(message);
    this.name = "JobStop";
  }
}

/** A callback or object transfer that failed for good (after retries), and the job was not stopped. */
export class LinkError extends Error {
  constructor(
    message: string,
    /** Set when the Worker answered with this HTTP status. */
    readonly status?: number,
    /** A failure that retrying cannot fix (e.g. the object is over the size limit). */
    readonly permanent = false,
  ) {
    super(message);
    this.name = "LinkError";
  }
}

/** Answers that mean this attempt is no longer the job's (stale attempt, bad token, job gone or ended). */
export const FENCING = new Set([401, 403, 404, 409, 410]);

/** Answers after which the same request may succeed. */
export function retriable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
