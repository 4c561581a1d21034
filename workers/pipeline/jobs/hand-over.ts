/**
 * Handing one run to a renderer: the whole render's (dispatch.ts) or a split render's segment or join
 * (segment-dispatch.ts), the same way.
 */
import { VIDEO_FAILURES } from "@avatar-video/contract";
import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";
import { type JobMessage, runId } from "../queue/messages";
import { dispatchToRenderer, RendererRejected } from "../renderer/client";
import type { RendererPayload } from "../renderer/payload";
import { acquireRenderer } from "../renderer/pool";
import { type JobError, PIPELINE_FAILURES } from "./failures";
import type { AnyJob } from "./store";
import { failJob } from "./transitions";

export type DispatchOutcome =
  /** Nothing (more) to do for this message: the job is terminal, in flight, unknown, or was just handled. */
  | { done: true; action: "dispatched" | "in_flight" | "terminal" | "unknown" | "failed" | "lost_race" | "waiting" }
  /** The renderer could not take it: the job is queued again, deliver the message later. */
  | { done: false; reason: string };

/** How one run is claimed and handed over: the job's own (dispatch.ts), or one of a split render's (segment-dispatch.ts). */
export interface RunHandOver {
  /** The claim is the job's own attempt (a whole render's run), not a split render's run's. */
  claimsJob: boolean;
  /** No instance free: the run waits in the pool. */
  waiting(): Promise<unknown>;
  /** The compare-and-set that makes this delivery the run's next attempt (null: another one won). */
  claim(): Promise<number | null>;
  /** The dispatch body; null when the Avatar is gone (the job fails avatar_forbidden), or why the job fails. */
  payload(attempt: number): Promise<RendererPayload | null | { refused: JobError }>;
  /** The renderer could not take it: the run is queued again, its attempt number given back. */
  giveBack(attempt: number): Promise<unknown>;
}

/**
 * An instance for the run (or its place in the pool's line), the claim, the dispatch. A renderer that refuses
 * the payload fails the job; one that cannot take it now gives the run back to the queue.
 */
export async function handOver(
  env: Env,
  msg: JobMessage,
  found: AnyJob,
  now: number,
  run: RunHandOver,
): Promise<DispatchOutcome> {
  const { job } = found;
  const log = { kind: msg.kind, jobId: msg.jobId, ...(msg.segment !== undefined ? { segment: msg.segment } : {}) };
  const grant = await acquireRenderer(env, { kind: msg.kind, jobId: runId(msg), accountId: job.accountId }, now);
  if ("waiting" in grant) {
    await run.waiting();
    logEvent("dispatch_waiting", { ...log, accountId: job.accountId, ahead: grant.waiting });
    return { done: true, action: "waiting" };
  }
  const attempt = await run.claim();
  if (attempt === null) return { done: true, action: "lost_race" };
  const payload = await run.payload(attempt);
  // A failure below is the job's: it fails whatever run of it was claimed.
  const claimed = {
    ...found,
    job: { ...job, status: "processing", attempt: run.claimsJob ? attempt : job.attempt },
  } as AnyJob;
  if (!payload || "refused" in payload) {
    const error = payload?.refused ?? { code: "avatar_forbidden", ...VIDEO_FAILURES.avatar_forbidden };
    await failJob(env, claimed, error, now);
    return { done: true, action: "failed" };
  }
  try {
    const { answerMs } = await dispatchToRenderer(env, payload, grant.instance);
    // answerMs after a long idleMs (or none: never used) is a cold start (docs/operations.md, "Capacity").
    logEvent("dispatch", {
      ...log,
      accountId: job.accountId,
      attempt,
      instance: grant.instance,
      answerMs,
      idleMs: grant.idleMs,
    });
    return { done: true, action: "dispatched" };
  } catch (err) {
    if (err instanceof RendererRejected) {
      logEvent("dispatch_rejected", { ...log, accountId: job.accountId, attempt, error: err }, "error");
      const failure =
        found.kind === "avatar" ? PIPELINE_FAILURES.avatarDispatchRejected : PIPELINE_FAILURES.videoDispatchRejected;
      await failJob(env, claimed, failure, now);
      return { done: true, action: "failed" };
    }
    // Busy, restarting or unreachable: queued again (video stage waiting_for_renderer), the message retried.
    await run.giveBack(attempt);
    logEvent("dispatch_unavailable", { ...log, accountId: job.accountId, attempt, error: err }, "warn");
    return { done: false, reason: String(err) };
  }
}

/** A run went silent after the last allowed attempt: the job fails (retryable) instead of staying stuck. */
export function failStalled(env: Env, found: AnyJob, now: number) {
  const failure = found.kind === "avatar" ? PIPELINE_FAILURES.avatarStalled : PIPELINE_FAILURES.videoStalled;
  return failJob(env, found, failure, now, ["processing"]);
}
