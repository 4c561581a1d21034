/**
 * One queue delivery for a run of a split render (docs/pipeline.md "Split renders"): segment `idx` of the
 * job's segments, or the join (idx = the count). As for a whole render (dispatch.ts): load the job and the
 * run's row; when the run is queued or went silent, check access, take a renderer instance (or wait in the
 * pool's line), claim the row (attempt + 1) and dispatch. A run that stalls after its last attempt fails the
 * job, which ends every run of it.
 */
import type { Env } from "../../platform/env";
import { joinPayload, segmentPayload } from "../renderer/payload";
import { MAX_ATTEMPTS, staleHeartbeatMs } from "./constants";
import { expireVideoJob } from "./expiry";
import { PIPELINE_FAILURES } from "./failures";
import { type DispatchOutcome, failStalled, handOver } from "./hand-over";
import { claimSegment, joinFrames, loadSegment, releaseSegmentClaim, segmentDispatchable } from "./segments";
import { isTerminal, loadJob } from "./store";
import { failJob } from "./transitions";
import { videoAccessProblem } from "./video-access";

export async function dispatchSegment(env: Env, jobId: string, idx: number, now: number): Promise<DispatchOutcome> {
  const found = await loadJob(env, "video", jobId);
  if (found?.kind !== "video") return { done: true, action: "unknown" };
  const job = found.job;
  if (isTerminal(job.status)) return { done: true, action: "terminal" };
  if (job.expiresAt.getTime() <= now) {
    await expireVideoJob(env, job, now);
    return { done: true, action: "terminal" };
  }
  const count = job.segments;
  if (count === null || idx > count) return { done: true, action: "unknown" };
  const row = await loadSegment(env, jobId, idx);
  if (!row) return { done: true, action: "unknown" };
  // done: nothing more to run; pending: the join waits for its segments (joinReady sends it).
  if (row.status === "done" || row.status === "pending") return { done: true, action: "terminal" };
  const staleMs = staleHeartbeatMs(env);
  if (!segmentDispatchable(row, now, staleMs)) return { done: true, action: "in_flight" };
  if (row.status === "processing" && row.attempt >= MAX_ATTEMPTS) {
    await failStalled(env, found, now);
    return { done: true, action: "failed" };
  }
  const problem = await videoAccessProblem(env, job);
  if (problem) {
    await failJob(env, found, problem, now);
    return { done: true, action: "failed" };
  }
  return handOver(env, { kind: "video", jobId, segment: idx }, found, now, {
    claimsJob: false,
    waiting: async () => {},
    claim: () => claimSegment(env, row, now, staleMs),
    payload: async (attempt) => {
      if (idx < count) return segmentPayload(env, job, idx, count, attempt);
      const tiled = await joinFrames(env, jobId, count);
      if ("problem" in tiled) return { refused: { ...PIPELINE_FAILURES.videoSegmentsMismatch, detail: tiled.problem } };
      return joinPayload(env, job, count, tiled.frames, attempt);
    },
    giveBack: (attempt) => releaseSegmentClaim(env, jobId, idx, attempt, Date.now()),
  });
}
