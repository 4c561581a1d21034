/**
 * The join of a split render (dispatch `join`, docs/pipeline.md "Split renders"): the segments' files and the
 * audio track are fetched from the Worker, concatenated and muxed without encoding again
 * (video/segments.ts joinVideo), checked to hold every frame, and uploaded as the job's one MP4.
 *
 * Stages: encoding → uploading (then the Worker's `completed`): the frames were drawn by the segments' runs.
 */
import path from "node:path";
import type { VideoDispatch } from "@avatar-video/contract";
import { unexpectedFailure } from "../rules/public";
import { type JobContext, abortable, since } from "./context";
import { uploadFailed, type VideoResult } from "./video-job";

/** A part is at most a whole video (the Worker accepts 4 GiB per MP4). */
const MAX_PART_BYTES = 4096 * 1024 * 1024;

export async function runJoinJob(ctx: JobContext<VideoDispatch>): Promise<VideoResult> {
  const { dispatch, link, engines, workDir, signal, log } = ctx;
  const join = dispatch.join;
  if (!join) throw unexpectedFailure("video", "a join run without its parts");
  const timings: Record<string, number> = {};
  await link.progress("encoding");

  let t = performance.now();
  const parts = join.parts.map((_, k) => path.join(workDir, `part-${k}.mp4`));
  const audioTrack = path.join(workDir, "audio-track.m4a");
  await Promise.all([
    ...join.parts.map((url, k) => link.getObjectToFile(url, parts[k], MAX_PART_BYTES)),
    link.getObjectToFile(join.audioTrack, audioTrack, MAX_PART_BYTES),
  ]).catch((err) => {
    if (signal.aborted) throw signal.reason;
    throw unexpectedFailure("video", `a part of the split video could not be fetched: ${(err as Error).message}`);
  });
  timings.fetchMs = since(t);

  t = performance.now();
  const joined = await abortable(
    engines.joinVideo({ parts, audioTrack, frames: join.frames, workDir, signal }),
    signal,
  );
  timings.joinMs = since(t);
  log.info("video_joined", { parts: parts.length, frames: joined.frames, ...timings });

  await link.progress("uploading");
  t = performance.now();
  const video = dispatch.outputs.video;
  const bytes = await link.putObject(video, { file: joined.mp4Path }, "video/mp4").catch(uploadFailed(signal));
  timings.uploadMs = since(t);
  return {
    durationSeconds: joined.durationSeconds,
    frames: joined.frames,
    fps: joined.fps,
    bytes,
    width: dispatch.settings.width,
    height: dispatch.settings.height,
    timings,
  };
}
