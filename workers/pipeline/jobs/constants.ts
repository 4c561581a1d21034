/** Pipeline timings (docs/pipeline.md). */
import { workerConfig } from "../../platform/config";
import type { Env } from "../../platform/env";

/** The renderer beats every 5 s (at most 10 s); a processing job silent for 30 s (several missed beats) is stalled. */
export const STALE_HEARTBEAT_MS = 30_000;
/**
 * The stall threshold in use: `STALL_AFTER_SECONDS` (an integer 5–60, for tests that kill renderers; another
 * value is a configuration error, platform/config.ts) or STALE_HEARTBEAT_MS. Never above 60 s: a job silent
 * for a minute is always dispatched again.
 */
export function staleHeartbeatMs(env: Pick<Env, "STALL_AFTER_SECONDS">): number {
  const seconds = workerConfig(env).STALL_AFTER_SECONDS;
  return seconds === undefined ? STALE_HEARTBEAT_MS : seconds * 1000;
}
/**
 * Renderer runs per job (dispatches the renderer accepted); a stall after the last one fails the job.
 * Six: a job survives five renderer deaths in a row, and a job that kills its renderer every time still
 * fails within about 6 × (30 s + 60 s sweep period) ≈ 9 minutes.
 */
export const MAX_ATTEMPTS = 6;
/** Video stage while the job waits for a renderer that is busy, restarting or went silent (docs/pipeline.md). */
export const WAITING_FOR_RENDERER = "waiting_for_renderer";
/** A queued job whose message was sent longer ago than this (or never) is sent again by the sweep. */
export const RESEND_AFTER_MS = 2 * 60_000;
/**
 * An Avatar creation job not resolved within this window fails, retryable (avatar_generation_failed when it
 * never started, internal_error when its runs kept dying). A healthy one takes seconds.
 */
export const AVATAR_START_DEADLINE_MS = 10 * 60_000;
/** Queue retry delay after a failed dispatch: 10 s doubling, at most 60 s (below RESEND_AFTER_MS). */
export const dispatchRetryDelaySeconds = (deliveryAttempt: number) =>
  Math.min(60, 10 * 2 ** Math.max(0, deliveryAttempt - 1));
/** Rows handled per sweep step and run, so one run stays short whatever the backlog. */
export const SWEEP_BATCH = 50;
/** Accounts whose Avatar Creation state is reconciled per sweep run. */
export const RECONCILE_ACCOUNTS = 20;
/** Accounts with Avatar jobs changed within this window are reconciled. */
export const RECONCILE_WINDOW_MS = 15 * 60_000;
