import type { Env } from "../../platform/env";
import { avatarPayload, videoPayload } from "../renderer/payload";
import { releaseRenderer } from "../renderer/pool";
import { type JobMessage, runId } from "../queue/messages";
import { MAX_ATTEMPTS, staleHeartbeatMs } from "./constants";
import { expireVideoJob } from "./expiry";
import { type DispatchOutcome, failStalled, handOver } from "./hand-over";
import { dispatchSegment } from "./segment-dispatch";
import { isTerminal, loadJob } from "./store";
import { claimForDispatch, dispatchable, failJob, markWaiting, releaseClaim } from "./transitions";
import { videoAccessProblem } from "./video-access";

export { type DispatchOutcome, failStalled };

/**
 * One queue delivery: load the job and, when it is queued or its run went silent, claim it (attempt + 1)
 * and hand it to the renderer instance the pool grants it. Idempotent under redelivery: a run with a fresh
 * heartbeat is left alone and the claim is a compare-and-set, so two deliveries never start two runs.
 * A render with no free instance waits in the pool (message acked): the pool sends a message when it
 * grants one, and the sweep re-sends queued jobs every 2 minutes in case that message is lost. A message
 * naming a segment (or the join) of a split render dispatches that run alone (segment-dispatch.ts).
 */
export async function dispatchJob(env: Env, msg: JobMessage, now: number): Promise<DispatchOutcome> {
  const outcome =
    msg.kind === "video" && msg.segment !== undefined
      ? await dispatchSegment(env, msg.jobId, msg.segment, now)
      : await dispatchOnce(env, msg, now);
  // A run that ended (or never reached a renderer) gives its instance or place in line back.
  if (outcome.done ? !["dispatched", "in_flight", "lost_race", "waiting"].includes(outcome.action) : true) {
    await releaseRenderer(env, [runId(msg)], Date.now());
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
  // A split render's runs are its segments' and its join's (segment-dispatch.ts).
  if (found.kind === "video" && found.job.segments !== null) return { done: true, action: "in_flight" };
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
  return handOver(env, msg, found, now, {
    claimsJob: true,
    waiting: () => (found.kind === "video" ? markWaiting(env, found.job, now) : Promise.resolve()),
    claim: () => claimForDispatch(env, found, now, staleMs),
    payload: (attempt) =>
      found.kind === "avatar" ? avatarPayload(env, found.job, attempt) : videoPayload(env, found.job, attempt),
    giveBack: (attempt) => releaseClaim(env, msg.kind, msg.jobId, attempt, Date.now()),
  });
}
