/**
 * Talking-head renderer: portrait + rig + audio → MP4 (and, when asked, the WebM with alpha of the person).
 *
 * Stages reported through onStage: analyzing_audio → composing → rendering → encoding (see docs/rendering.md).
 * The static canvas (background + portrait) is composed once and converted to yuv420p once. Per frame
 * only the face region changes: the mesh triangles that moved are warped from the static frame straight
 * into one of a few pooled yuv420p buffers (luma full, chroma half resolution) and the mouth interior is
 * drawn there, on one or more threads (see paint/painter.ts). Frames whose pose did not change are re-sent
 * without any work (frame-loop.ts). With the Avatar's matte in use the person is a layer of its own,
 * warped with the same mesh and blended over the unmoving background (person-scene.ts).
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { ANALYSIS_RATE, type LipTrack } from "@avatar-video/motion-model";
import { analyzeAudioFile } from "../analysis/public";
import { probeAudio, tooLong, MAX_AUDIO_SECONDS, type AudioInfo, FrameEncoder, throwIfAborted } from "../media/public";
import { buildFaceModel, type FaceModel, photoMouthColors } from "@avatar-video/face-rig";
import { JobFailure } from "../rules/public";
import { type FrameRange, paintAndEncodeFrames } from "./frame-loop";
import { FramePainter } from "../paint/public";
import { PeakMemory } from "./peak-memory";
import { defaultAnimationSeed, makePoseSchedule, type PoseSchedule } from "./pose-schedule";
import { checkRenderInput, type RenderInput } from "./render-input";
import { makeTimeline, type Timeline } from "./timeline";
import { staticFrames } from "./person-scene";
import { segmentRange, videoAudioTrack } from "./segments";

export type { RenderInput, RenderSettings } from "./render-input";

export interface RenderResult {
  /** The MP4; of a segment (`input.segment`): its frames alone, without audio (segments.ts joins them). */
  mp4Path: string;
  /** With `input.audioTrack`: the video's whole audio track (segments.ts videoAudioTrack). */
  audioTrackPath?: string;
  /** `<workDir>/video.webm`, the person alone with alpha, when `settings.alpha`. */
  webmPath?: string;
  durationSeconds: number;
  /** Frames in mp4Path (a segment's own: [range.start, range.end) of the timeline). */
  frames: number;
  range: FrameRange;
  fps: number;
  /** The whole timeline (a segment's plan and join check against it). */
  timeline: Timeline;
  /** Milliseconds per step: probe, analysis (decode included), compose, render (frame loop incl. encoding), encodeTail, total. */
  timings: Record<string, number>;
  /** Peak resident memory in bytes (node process, ffmpeg child). */
  memory: { nodePeakRss: number; ffmpegPeakRss: number };
  /** Frames actually re-rendered (the rest repeated the previous frame). */
  renderedFrames: number;
}

/** Render stage names, in order. */
export const RENDER_STAGES = ["analyzing_audio", "composing", "rendering", "encoding"] as const;

/** Pooled output frames: one being painted, one or two still being read by ffmpeg. */
const FRAME_POOL_SIZE = 3;

export async function renderVideo(input: RenderInput): Promise<RenderResult> {
  const clock = new StepClock();
  checkRenderInput(input);
  const memory = new PeakMemory();
  input.onStage?.("analyzing_audio");
  const audio = await analyseAudio(input, clock);
  input.onStage?.("composing");
  const scene = await composeScene(input, audio, clock);
  const poses = scheduleAnimation(input, audio, scene);
  input.onStage?.("rendering");
  const range = frameRange(input, scene.timeline);
  const mp4Path = join(input.workDir, input.segment ? `segment-${input.segment.index}.mp4` : "video.mp4");
  const audioTrack = startAudioTrack(input, scene.timeline);
  const webmPath = input.settings.alpha ? join(input.workDir, "video.webm") : undefined;
  const encoder = startEncoder(input, audio.info, scene.timeline, range, mp4Path);
  const alphaEncoder = webmPath
    ? startEncoder(input, audio.info, scene.timeline, range, webmPath, "webm-alpha")
    : undefined;
  let renderedFrames: number;
  try {
    const loop = await paintAndEncodeFrames(
      range,
      poses,
      scene.model,
      scene.painter,
      encoder,
      memory,
      input.signal,
      alphaEncoder,
    );
    renderedFrames = loop.renderedFrames;
    clock.lap("render");
    recordPainterTimings(clock.timings, loop.waitMs, scene.painter);
    input.onStage?.("encoding");
    await Promise.all([encoder, alphaEncoder].map((e) => e && finishEncoding(e, memory, input.signal)));
    clock.lap("encodeTail");
    if (audioTrack) await audioTrack;
  } catch (e) {
    encoder.kill();
    alphaEncoder?.kill();
    if (input.signal?.aborted) throw input.signal.reason ?? e;
    throw e;
  } finally {
    scene.painter.close();
  }
  await checkOutput(mp4Path);
  if (webmPath) await checkOutput(webmPath);
  memory.sampleNode();
  clock.total();
  const tl = scene.timeline;
  return {
    mp4Path,
    ...(webmPath ? { webmPath } : {}),
    ...(audioTrack ? { audioTrackPath: await audioTrack } : {}),
    durationSeconds: (range.end - range.start) / tl.fps,
    frames: range.end - range.start,
    range,
    fps: tl.fps,
    timeline: tl,
    timings: clock.timings,
    memory: { nodePeakRss: memory.nodePeakRss, ffmpegPeakRss: memory.ffmpegPeakRss },
    renderedFrames,
  };
}

interface AnalysedAudio {
  info: AudioInfo;
  track: LipTrack;
  /** Decoded samples at ANALYSIS_RATE. */
  samples: number;
  seconds: number;
}

/** Probe, then decode and analyse window by window: memory does not grow with the audio's length (analysis/lip-stream.ts). */
async function analyseAudio(input: RenderInput, clock: StepClock): Promise<AnalysedAudio> {
  const info = await probeAudio(input.audioPath, input.signal);
  clock.lap("probe");
  const { track, samples } = await analyzeAudioFile(input.audioPath, input.signal);
  clock.lap("analysis");
  const seconds = samples / ANALYSIS_RATE;
  if (seconds > MAX_AUDIO_SECONDS + 0.5) throw tooLong(seconds);
  throwIfAborted(input.signal);
  return { info, track, samples, seconds };
}

interface Scene {
  model: FaceModel;
  timeline: Timeline;
  painter: FramePainter;
}

/** The static frames, the mesh placed on them, interior colours sampled from the photo, the painter threads. */
async function composeScene(input: RenderInput, audio: AnalysedAudio, clock: StepClock): Promise<Scene> {
  const { width, height } = input.settings;
  const still = await staticFrames(input);
  const model = buildFaceModel(input.rig, still.placement);
  const timeline = makeTimeline(audio.seconds, input.settings.leadInSeconds, input.settings.leadOutSeconds);
  const painter = await FramePainter.create(
    model,
    photoMouthColors({ data: still.rgb, width, height, channels: 3 }, model),
    still.yuv,
    width,
    height,
    {
      poolSize: FRAME_POOL_SIZE,
      threads: input.threads,
      person: still,
    },
  );
  clock.lap("compose");
  throwIfAborted(input.signal);
  return { model, timeline, painter };
}

function scheduleAnimation(input: RenderInput, audio: AnalysedAudio, scene: Scene): PoseSchedule {
  return makePoseSchedule({
    track: audio.track,
    timeline: scene.timeline,
    seed: input.seed ?? defaultAnimationSeed(input.rig, audio.samples),
    interocular: scene.model.interocular,
    headMotion: input.animation?.headMotion !== false,
    blinks: input.animation?.blinks !== false,
    performance: input.settings.performance,
  });
}

/** The whole timeline, or the segment asked for (its shape is checked by checkRenderInput). */
function frameRange(input: RenderInput, tl: Timeline): FrameRange {
  const s = input.segment;
  if (!s) return { start: 0, end: tl.frames };
  if (s.count > tl.frames)
    throw new JobFailure("renderer_rejected", `${s.count} segments cannot split ${tl.frames} frames.`);
  return segmentRange(tl.frames, s.index, s.count);
}

/** A segment's run may also encode the whole audio track, on its own core while the frames are painted. */
function startAudioTrack(input: RenderInput, timeline: Timeline): Promise<string> | undefined {
  if (!input.segment || !input.audioTrack) return undefined;
  const track = videoAudioTrack({ audioPath: input.audioPath, timeline, workDir: input.workDir, signal: input.signal });
  track.catch(() => {}); // awaited after the frames; a failure there is the render's
  return track;
}

function startEncoder(
  input: RenderInput,
  info: AudioInfo,
  tl: Timeline,
  range: FrameRange,
  outPath: string,
  format?: "webm-alpha",
): FrameEncoder {
  const frames = range.end - range.start;
  return new FrameEncoder({
    format,
    width: input.settings.width,
    height: input.settings.height,
    fps: tl.fps,
    frames,
    audioPath: input.audioPath,
    videoOnly: !!input.segment,
    channels: info.channels >= 2 ? 2 : 1,
    audioStart: tl.speechStart,
    durationSeconds: frames / tl.fps,
    outPath,
    signal: input.signal,
    videoArgs: input.videoArgs,
  });
}

/** Diagnostics of the frame loop: where the calling thread's time went. */
function recordPainterTimings(timings: Record<string, number>, waitMs: number, painter: FramePainter): void {
  timings.frameWait = Math.round(waitMs);
  timings.frameWarp = Math.round(painter.t.warp);
  timings.frameMouth = Math.round(painter.t.mouth);
  timings.frameJoin = Math.round(painter.t.join);
  timings.threads = painter.threads;
}

/** Close ffmpeg's input and wait for it to write the tail (remaining frames, audio, moov atom). */
async function finishEncoding(encoder: FrameEncoder, memory: PeakMemory, signal?: AbortSignal): Promise<void> {
  memory.sampleChild(encoder.child.pid);
  const exit = await encoder.finish();
  throwIfAborted(signal);
  if (exit.code !== 0 || encoder.error) {
    const detail = `ffmpeg exit ${exit.code} ${exit.signal ?? ""} ${encoder.error?.message ?? ""}: ${encoder.stderrTail}`;
    throw new JobFailure("render_failed", "Video encoding failed.", { detail });
  }
}

async function checkOutput(path: string): Promise<void> {
  const file = await stat(path).catch(() => undefined);
  if (!file || file.size === 0) throw new JobFailure("render_failed", "Video encoding produced no output.");
}

/** Wall milliseconds per step, in the order the steps ran. */
class StepClock {
  readonly timings: Record<string, number> = {};
  private readonly start = performance.now();
  private since = this.start;

  lap(step: string): void {
    this.timings[step] = Math.round(performance.now() - this.since);
    this.since = performance.now();
  }

  total(): void {
    this.timings.total = Math.round(performance.now() - this.start);
  }
}
