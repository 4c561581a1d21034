import type { Env } from "../../platform/env";
import { dispatchToRenderer, RendererRejected } from "../renderer/client";
import { avatarPayload, videoPayload } from "../renderer/payload";
import { acquireRenderer, releaseRenderer } from "../renderer/pool";
import type { JobMessage } from "../queue/messages";
import { MAX_ATTEMPTS, staleHeartbeatMs } from "./constants";
import { expireVideoJob } from "./expiry";
import { VIDEO_FAILURES } from "@avatar-video/contract";
import { PIPELINE_FAILURES } from "./failures";
import { isTerminal, loadJob, type AnyJob } from "./store";
import { claimForDispatch, dispatchable, failJob, markWaiting, releaseClaim } from "./transitions";
import { videoAccessProblem } from "./video-access";
import { logEvent } from "../../platform/logging/log-event";

export type DispatchOutcome =
  /** Nothing (more) to do for this message: the job is terminal, in flight, unknown, or was just handled. */
  | { done: true; action: "dispatched" | "in_flight" | "terminal" | "unknown" | "failed" | "lost_race" | "waiting" }
  /** The renderer could not take it: the job is queued again, deliver the message later. */
  | { done: false; reason: string };

/**
 * One queue delivery: load the job and, when it is queued or its run went silent, claim it (attempt + 1)
 * and hand it to the renderer instance the pool grants it. Idempotent under redelivery: a run with a fresh
 * heartbeat is left alone and the claim is a compare-and-set, so two deliveries never start two runs.
 * A render with no free instance waits in the pool (message acked): the pool sends a message when it
 * grants one, and the sweep re-sends queued jobs every 2 minutes in case that message is lost.
 */
export async function dispatchJob(env: Env, msg: JobMessage, now: number): Promise<DispatchOutcome> {
  const outcome = await dispatchOnce(env, msg, now);
  // A job that ended (or never reached a renderer) gives its instance or place in line back.
  if (outcome.done ? !["dispatched", "in_flight", "lost_race", "waiting"].includes(outcome.action) : true) {
    await releaseRenderer(env, [msg.jobId], Date.now());
  }
  return outcome;
}

async function dispatchOnce(env: Env, msg: JobMessage, now: number): Promise<DispatchOutcome> {
  const found = await loadJob(env, msg.kind, msg.jobId);
  if (!found) return { done: true, action: "unknown" };
  const { job } = found;
  if (isTerminal(job.status)) return { done: true, action: "terminal" };
  if (found.kind === "video" && found.job.expiresAt.getTime() <= now) {
    await expireVideoJob(env, found.job, now);
    return { done: true, action: "terminal" };
  }
  const staleMs = staleHeartbeatMs(env);
  if (!dispatchable(job, now, staleMs)) return { done: true, action: "in_flight" };

  if (job.status === "processing" && job.attempt >= MAX_ATTEMPTS) {
    await failStalled(env, found, now);
    return { done: true, action: "failed" };
  }
  if (found.kind === "video") {
    const problem = await videoAccessProblem(env, found.job);
    if (problem) {
      await failJob(env, found, problem, now);
      return { done: true, action: "failed" };
    }
  }

  const grant = await acquireRenderer(env, { kind: msg.kind, jobId: msg.jobId, accountId: job.accountId }, now);
  if ("waiting" in grant) {
    if (found.kind === "video") await markWaiting(env, found.job, now);
    logEvent("dispatch_waiting", { kind: msg.kind, jobId: msg.jobId, accountId: job.accountId, ahead: grant.waiting });
    return { done: true, action: "waiting" };
  }
  const attempt = await claimForDispatch(env, found, now, staleMs);
  if (attempt === null) return { done: true, action: "lost_race" };
  const payload =
    found.kind === "avatar"
      ? await avatarPayload(env, found.job, attempt)
      : await videoPayload(env, found.job, attempt);
  const claimed = { ...found, job: { ...found.job, status: "processing", attempt } } as AnyJob;
  if (!payload) {
    await failJob(env, claimed, { code: "avatar_forbidden", ...VIDEO_FAILURES.avatar_forbidden }, now);
    return { done: true, action: "failed" };
  }
  try {
    const { answerMs } = await dispatchToRenderer(env, payload, grant.instance);
    // answerMs after a long idleMs (or none: never used) is a cold start (docs/operations.md, "Capacity").
    logEvent("dispatch", {
      kind: msg.kind,
      jobId: msg.jobId,
      accountId: job.accountId,
      attempt,
      instance: grant.instance,
      answerMs,
      idleMs: grant.idleMs,
    });
    return { done: true, action: "dispatched" };
  } catch (err) {
    if (err instanceof RendererRejected) {
      logEvent(
        "dispatch_rejected",
        { kind: msg.kind, jobId: msg.jobId, accountId: job.accountId, attempt, error: err },
        "error",
      );
      const failure =
        found.kind === "avatar" ? PIPELINE_FAILURES.avatarDispatchRejected : PIPELINE_FAILURES.videoDispatchRejected;
      await failJob(env, claimed, failure, now);
      return { done: true, action: "failed" };
    }
    // Busy, restarting or unreachable: queued again (video stage waiting_for_renderer), the message retried.
    await releaseClaim(env, msg.kind, msg.jobId, attempt, Date.now());
    logEvent(
      "dispatch_unavailable",
      { kind: msg.kind, jobId: msg.jobId, accountId: job.accountId, attempt, error: err },
      "warn",
    );
    return { done: false, reason: String(err) };
  }
}

/** A run went silent after the last allowed attempt: the job fails (retryable) instead of staying stuck. */
export function failStalled(env: Env, found: AnyJob, now: number) {
  const failure = found.kind === "avatar" ? PIPELINE_FAILURES.avatarStalled : PIPELINE_FAILURES.videoStalled;
  return failJob(env, found, failure, now, ["processing"]);
}
