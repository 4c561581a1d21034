/** Pipeline timings (docs/pipeline.md). */

/** The renderer beats every 5 s (at most 10 s); a processing job silent for 30 s (several missed beats) is stalled. */
export const STALE_HEARTBEAT_MS = 30_000;
/** Renderer runs per job (dispatches the renderer accepted); a stall after the last one fails the job. */
export const MAX_ATTEMPTS = 3;
/** A queued job whose message was sent longer ago than this (or never) is sent again by the sweep. */
export const RESEND_AFTER_MS = 2 * 60_000;
/** An Avatar creation job that could not start within this window fails (avatar_generation_failed). */
export const AVATAR_START_DEADLINE_MS = 60 * 60_000;
/** Queue retry delay after a failed dispatch: 10 s doubling, at most 60 s (below RESEND_AFTER_MS). */
export const dispatchRetryDelaySeconds = (deliveryAttempt: number) => Math.min(60, 10 * 2 ** Math.max(0, deliveryAttempt - 1));
/** Rows handled per sweep step and run, so one run stays short whatever the backlog. */
export const SWEEP_BATCH = 50;
/** Accounts whose Avatar Creation state is reconciled per sweep run. */
export const RECONCILE_ACCOUNTS = 20;
/** Accounts with Avatar jobs changed within this window are reconciled. */
export const RECONCILE_WINDOW_MS = 15 * 60_000;
