import { type JobEvent, PREPROCESSED_STAGE, RENDERING_STAGE } from "@avatar-video/contract";
import type { Env } from "../../platform/env";
import { alphaVideoKey, avatarKeys, videoKey } from "../../platform/storage/keys";
import { releaseRenderer } from "../renderer/pool";
import { avatarIdForJob } from "./avatar-id";
import { succeedAvatar } from "./avatar-success";
import { logEvent } from "../../platform/logging/log-event";
import { splitRule } from "../renderer/split";
import { normalizeFailure, PIPELINE_FAILURES, type JobError, unexpectedSplit } from "./failures";
import { recordSplit } from "./segments";
import { loadJob, type AnyJob } from "./store";
import { failJob, recordProgress, succeedVideo } from "./transitions";
import { captureUnit, finishAvatarSlot } from "./units";
import type { JobKind } from "./tokens";
import { videoAccessProblem } from "./video-access";

/** Answer to an event; `abort` tells the renderer to stop this run and report nothing more. */
export type EventAnswer = { ok: true } | { ignored: true; abort?: JobError } | { abort: JobError };

/** Told to a run that is no longer current, so it stops instead of working for nothing. */
export const SUPERSEDED: JobError = {
  code: "superseded",
  message: "This run is no longer current: a newer attempt runs or the job has ended.",
  retryable: false,
};

/**
 * Applies one renderer event to the job's state machine. Events of another attempt, or for a job that is
 * no longer processing, change nothing ({ignored: true}); replays of the current attempt's events are
 * harmless (every effect is idempotent).
 */
export async function handleJobEvent(
  env: Env,
  kind: JobKind,
  jobId: string,
  attempt: number,
  event: JobEvent,
  now: number,
): Promise<EventAnswer> {
  const found = await loadJob(env, kind, jobId);
  if (found?.job.status !== "processing" || found.job.attempt !== attempt) {
    return event.type === "progress" ? { ignored: true, abort: SUPERSEDED } : { ignored: true };
  }
  const answer = await apply(env, found, event, now);
  // The current run ended (or was stopped): its renderer instance goes to the next waiting render.
  // (An ignored event changed nothing: a newer attempt may hold the instance.)
  const ended = !("ignored" in answer) && (event.type !== "progress" || "abort" in answer);
  if (ended) await releaseRenderer(env, [jobId], Date.now());
  return answer;
}

async function apply(env: Env, found: AnyJob, event: JobEvent, now: number): Promise<EventAnswer> {
  const kind = found.kind;
  switch (event.type) {
    case "progress":
      return progress(env, found, event.stage, now);
    case "succeeded":
      return found.kind === "avatar" ? avatarSucceeded(env, found, now) : videoSucceeded(env, found, now);
    case "failed": {
      const changed = await failJob(env, found, normalizeFailure(kind, event.error), now, ["processing"]);
      return changed ? { ok: true } : { ignored: true };
    }
    case "split":
      return split(env, found, event.segments, now);
  }
}

/** The run renders nothing more: the video goes to `segments` runs of their own (docs/pipeline.md "Split renders"). */
async function split(env: Env, found: AnyJob, segments: number, now: number): Promise<EventAnswer> {
  // Only a run given the rule splits, and only into as many segments as the rule allows.
  const rule = found.kind === "video" ? splitRule(env, found.job) : undefined;
  if (found.kind !== "video" || !rule || segments > rule.maxSegments) {
    await failJob(env, found, unexpectedSplit(found.kind, segments), now, ["processing"]);
    return { ok: true };
  }
  if (!(await recordSplit(env, found.job, segments, now))) return { ignored: true };
  const runs = Array.from({ length: segments }, (_, segment) => ({
    body: { kind: "video" as const, jobId: found.job.id, segment },
  }));
  // A lost send is the sweep's to repeat (the rows are queued, stamped now).
  await env.JOBS.sendBatch(runs).catch((error: unknown) =>
    logEvent("segments_send_failed", { jobId: found.job.id, segments, error }, "warn"),
  );
  logEvent("video_split", { jobId: found.job.id, accountId: found.job.accountId, segments });
  return { ok: true };
}

async function progress(env: Env, found: AnyJob, stage: string, now: number): Promise<EventAnswer> {
  if (found.kind === "video" && stage === RENDERING_STAGE) {
    const problem = await videoAccessProblem(env, found.job);
    if (problem) {
      await failJob(env, found, problem, now, ["processing"]);
      return { abort: problem };
    }
  }
  if (!(await recordProgress(env, found, stage, now))) return { ignored: true, abort: SUPERSEDED };
  if (found.kind === "avatar" && stage === PREPROCESSED_STAGE) await captureUnit(env, found.job);
  return { ok: true };
}

async function missing(env: Env, keys: string[]): Promise<boolean> {
  const heads = await Promise.all(keys.map((k) => env.MEDIA.head(k)));
  return heads.some((h) => !h);
}

async function avatarSucceeded(env: Env, found: AnyJob & { kind: "avatar" }, now: number): Promise<EventAnswer> {
  const avatarId = await avatarIdForJob(found.job.id);
  const keys = avatarKeys(avatarId);
  if (await missing(env, [keys.portrait, keys.rig, keys.cover])) {
    await failJob(env, found, PIPELINE_FAILURES.avatarOutputsMissing, now, ["processing"]);
    return { ok: true };
  }
  // A success implies preprocessing completed, even if that progress event was lost.
  await captureUnit(env, found.job);
  if (await succeedAvatar(env, found.job, avatarId, now)) await finishAvatarSlot(env, found.job);
  return { ok: true };
}

async function videoSucceeded(env: Env, found: AnyJob & { kind: "video" }, now: number): Promise<EventAnswer> {
  const key = videoKey(found.job.id);
  // With video.alpha the WebM is part of the output: a success without it is a failed render.
  if (await missing(env, found.job.settings.alpha ? [key, alphaVideoKey(found.job.id)] : [key])) {
    await failJob(env, found, PIPELINE_FAILURES.videoOutputMissing, now, ["processing"]);
    return { ok: true };
  }
  await succeedVideo(env, found.job, key, now);
  return { ok: true };
}
