/**
 * Events of a split render's runs (docs/pipeline.md "Split renders"), as events.ts for a whole render's:
 * progress is the run's heartbeat (its `rendering` re-checks access; the join's stages are the job's),
 * `succeeded` marks a segment done once its part is stored (the last one queues the join) or, from the
 * join, completes the job; `failed` fails the job, and with it every run. Events of a run that is not current
 * (another attempt, the row done, the job ended) change nothing and a progress is told to stop.
 */
import { type JobEvent, RENDERING_STAGE } from "@avatar-video/contract";
import type { VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";
import { videoAudioTrackKey, videoKey, videoPartKey, videoPartKeys } from "../../platform/storage/keys";
import { runId } from "../queue/messages";
import { releaseRenderer } from "../renderer/pool";
import { type EventAnswer, SUPERSEDED } from "./events";
import { normalizeFailure, PIPELINE_FAILURES } from "./failures";
import { endSplitRuns, joinReady, type SegmentFrames, segmentBeat, segmentDone } from "./segments";
import { loadJob, type AnyJob } from "./store";
import { failJob, recordProgress, succeedVideo } from "./transitions";
import { videoAccessProblem } from "./video-access";

type VideoFound = AnyJob & { kind: "video" };

export async function handleSegmentEvent(
  env: Env,
  jobId: string,
  idx: number,
  attempt: number,
  event: JobEvent,
  now: number,
): Promise<EventAnswer> {
  const found = await loadJob(env, "video", jobId);
  const count = found?.kind === "video" ? found.job.segments : null;
  if (found?.kind !== "video" || found.job.status !== "processing" || count === null || idx > count) {
    return event.type === "progress" ? { ignored: true, abort: SUPERSEDED } : { ignored: true };
  }
  const run = { found, idx, attempt, count };
  const answer = await apply(env, run, event, now);
  const ended = !("ignored" in answer) && (event.type !== "progress" || "abort" in answer);
  if (ended) await releaseRenderer(env, [runId({ jobId, segment: idx })], Date.now());
  return answer;
}

interface Run {
  found: VideoFound;
  idx: number;
  attempt: number;
  count: number;
}

async function apply(env: Env, run: Run, event: JobEvent, now: number): Promise<EventAnswer> {
  const { found, idx, attempt } = run;
  switch (event.type) {
    case "progress":
      return progress(env, run, event.stage, now);
    case "succeeded":
      if (idx < run.count) return segmentSucceeded(env, run, event.result, now);
      if (!(await segmentBeat(env, found.job.id, idx, attempt, now))) return { ignored: true };
      return joinSucceeded(env, found.job, now);
    case "failed": {
      if (!(await segmentBeat(env, found.job.id, idx, attempt, now))) return { ignored: true };
      const changed = await failJob(env, found, normalizeFailure("video", event.error), now, ["processing"]);
      return changed ? { ok: true } : { ignored: true };
    }
    case "split":
      return { ignored: true }; // a split render's runs are never given the rule
  }
}

async function progress(env: Env, run: Run, stage: string, now: number): Promise<EventAnswer> {
  const { found, idx } = run;
  if (stage === RENDERING_STAGE) {
    const problem = await videoAccessProblem(env, found.job);
    if (problem) {
      await failJob(env, found, problem, now, ["processing"]);
      return { abort: problem };
    }
  }
  if (!(await segmentBeat(env, found.job.id, idx, run.attempt, now))) return { ignored: true, abort: SUPERSEDED };
  // The segments render under the job's `rendering`; the join's stages (encoding, uploading) are the job's.
  if (idx === run.count && found.job.stage !== stage) await recordProgress(env, found, stage, now);
  return { ok: true };
}

/** A segment's frames are stored: it is done with the frames it reports; the last one done queues the join. */
async function segmentSucceeded(env: Env, run: Run, result: unknown, now: number): Promise<EventAnswer> {
  const { found, idx, count } = run;
  const jobId = found.job.id;
  const frames = reportedFrames(result, idx);
  const keys = idx === 0 ? [videoPartKey(jobId, 0), videoAudioTrackKey(jobId)] : [videoPartKey(jobId, idx)];
  const heads = await Promise.all(keys.map((k) => env.MEDIA.head(k)));
  if (!frames || heads.some((h) => !h)) {
    const failure = frames ? PIPELINE_FAILURES.videoOutputMissing : PIPELINE_FAILURES.videoSegmentsMismatch;
    if (await segmentBeat(env, jobId, idx, run.attempt, now)) await failJob(env, found, failure, now, ["processing"]);
    return { ok: true };
  }
  if (!(await segmentDone(env, jobId, idx, run.attempt, frames))) return { ignored: true };
  if (await joinReady(env, jobId, count, now)) {
    await env.JOBS.send({ kind: "video", jobId, segment: count }).catch((error: unknown) =>
      logEvent("join_send_failed", { jobId, error }, "warn"),
    );
  }
  return { ok: true };
}

/** The joined MP4 is stored: the job succeeds as a whole render's would, and the parts go. */
async function joinSucceeded(env: Env, job: VideoJob, now: number): Promise<EventAnswer> {
  const key = videoKey(job.id);
  if (!(await env.MEDIA.head(key))) {
    await failJob(env, { kind: "video", job }, PIPELINE_FAILURES.videoOutputMissing, now, ["processing"]);
    return { ok: true };
  }
  if (await succeedVideo(env, job, key, now)) {
    await endSplitRuns(env, job.id);
    await env.MEDIA.delete(videoPartKeys(job.id));
  }
  return { ok: true };
}

/** The `segment` of a segment run's result (container runs/video-job.ts), when it is that segment's and sane. */
function reportedFrames(result: unknown, idx: number): SegmentFrames | undefined {
  const s = (result as { segment?: Record<string, unknown> } | undefined)?.segment;
  const int = (v: unknown): v is number => Number.isSafeInteger(v);
  if (!s || s.index !== idx || !int(s.start) || !int(s.end) || !int(s.frames)) return undefined;
  if (!(s.start >= 0 && s.start < s.end && s.end <= s.frames)) return undefined;
  return { start: s.start, end: s.end, frames: s.frames };
}
