/**
 * Split renders: a video whose audio is longer than a threshold renders as segments, frames [start, end)
 * of one timeline, each on an instance of its own (render.ts with `input.segment`), then joined without
 * encoding its frames again (media/segment-join.ts); the runs around them: runs/video-job.ts, join-job.ts.
 * Nothing carries from one frame to the next (a pose is a function of the frame's time, pose-schedule.ts;
 * the painter restores what it drew), so a segment's frames are the whole render's, and each segment's
 * encoder starts with an IDR frame.
 */
import { segmentCount } from "@avatar-video/contract";
import { encodeAudioTrack, JoinError, joinSegments, probeAudio } from "../media/public";
import { JobFailure } from "../rules/public";
import type { FrameRange } from "./frame-loop";
import type { Timeline } from "./timeline";

export interface SplitRule {
  /** Audio longer than this is split. */
  thresholdSeconds: number;
  /** At most this many segments (the instances that may render at once). */
  maxSegments: number;
}

/** Issue 34's rule: audio over 2 minutes is split, one segment per 2 minutes, at most 8 (the instances). */
export const SPLIT_DEFAULTS: SplitRule = { thresholdSeconds: 120, maxSegments: 8 };

/**
 * Frames [start, end) of segment `index` of `count`, of as equal lengths as whole frames allow. Each segment's
 * run computes its own range from the timeline (every run decodes the same audio: the same frames).
 */
export function segmentRange(frames: number, index: number, count: number): FrameRange {
  return { start: Math.round((frames * index) / count), end: Math.round((frames * (index + 1)) / count) };
}

/** The segments of a timeline: one (the whole) at or under the threshold, else segmentCount of them. */
export function planSegments(tl: Pick<Timeline, "frames" | "audioSeconds">, rule = SPLIT_DEFAULTS): FrameRange[] {
  const count = Math.min(segmentCount(tl.audioSeconds, rule), tl.frames);
  return Array.from({ length: count }, (_, k) => segmentRange(tl.frames, k, count));
}

/**
 * The video's one audio track (`<workDir>/audio.m4a`): encoded while the segments render, so the join
 * only copies.
 */
export async function videoAudioTrack(input: {
  audioPath: string;
  timeline: Pick<Timeline, "speechStart" | "durationSeconds">;
  workDir: string;
  signal?: AbortSignal;
}): Promise<string> {
  const info = await probeAudio(input.audioPath, input.signal);
  const outPath = `${input.workDir}/audio.m4a`;
  await encodeAudioTrack({
    audioPath: input.audioPath,
    channels: info.channels >= 2 ? 2 : 1,
    audioStart: input.timeline.speechStart,
    durationSeconds: input.timeline.durationSeconds,
    outPath,
    signal: input.signal,
  }).catch(joinFailure(input.signal));
  return outPath;
}

export interface JoinInput {
  /** The segments' MP4s in timeline order. */
  segments: string[];
  /** videoAudioTrack's file. */
  audioTrack: string;
  timeline: Pick<Timeline, "frames" | "durationSeconds">;
  workDir: string;
  signal?: AbortSignal;
}

/** The one MP4 of a split render: `<workDir>/video.mp4`, checked to hold every frame of the timeline. */
export async function joinVideo(input: JoinInput): Promise<{ mp4Path: string; frames: number }> {
  const mp4Path = `${input.workDir}/video.mp4`;
  await joinSegments({
    segments: input.segments,
    audioTrack: input.audioTrack,
    frames: input.timeline.frames,
    durationSeconds: input.timeline.durationSeconds,
    workDir: input.workDir,
    outPath: mp4Path,
    signal: input.signal,
  }).catch(joinFailure(input.signal));
  return { mp4Path, frames: input.timeline.frames };
}

const joinFailure = (signal?: AbortSignal) => (err: unknown) => {
  if (signal?.aborted) throw signal.reason ?? err;
  if (err instanceof JoinError)
    throw new JobFailure("render_failed", "The video segments could not be joined.", { detail: err.message });
  throw err;
};
