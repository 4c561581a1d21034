/**
 * Talking-head renderer: portrait + rig + audio → MP4.
 *
 * Stages reported through onStage: analyzing_audio → composing → rendering → encoding (see docs/rendering.md).
 * The static canvas (background + portrait) is composed once and converted to yuv420p once. Per frame
 * only the face region changes: the mesh triangles that moved are warped from the static frame straight
 * into one of a few pooled yuv420p buffers (luma full, chroma half resolution) and the mouth interior is
 * drawn there, on one or more threads (see painter.ts). Frames whose pose did not change are re-sent
 * without any work.
 */
import { stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ANALYSIS_RATE, sampleTrack } from "@avatar-video/motion-model";
import { analyzeAudioFile } from "../audio/lip-stream";
import { probeAudio, tooLong, MAX_AUDIO_SECONDS } from "../audio/probe";
import { deform, type FacePose } from "../animate/deform";
import { buildFaceModel } from "../animate/geometry";
import { blinkAmount, blinkSchedule, BLINK, makeHeadMotion } from "@avatar-video/motion-model";
import { mouthColors } from "../animate/mouth";
import { JobFailure } from "../job-failure";
import type { AvatarRig } from "@avatar-video/contract";
import { composeCanvas, sampleColor, type CanvasSettings } from "./compose";
import { FrameEncoder } from "./encoder";
import { throwIfAborted } from "./ffmpeg";
import { LIP_LEAD_SECONDS, makeTimeline, motionAmount, transitionGesture } from "./timeline";
import { FramePainter } from "./painter";
import { rgbToYuv420 } from "./yuv";

export { probeAudio, MAX_AUDIO_SECONDS } from "../audio/probe";
export type { AudioInfo } from "../audio/probe";

export interface RenderSettings extends CanvasSettings {
  leadInSeconds: number;
  leadOutSeconds: number;
}

export interface RenderInput {
  portraitPng: Buffer;
  rig: AvatarRig;
  audioPath: string;
  /** Any image sharp reads. */
  background?: Buffer;
  settings: RenderSettings;
  workDir: string;
  onStage?: (stage: string) => void;
  signal?: AbortSignal;
  /** Seed for blinks and head motion (default: derived from the rig and the audio length). */
  seed?: number;
  /**
   * Test/diagnostic switches (default all on): headMotion=false removes head sway, breathing, emphasis
   * nods and transition gestures; blinks=false removes blinks. The mouth always follows the audio.
   */
  animation?: { headMotion?: boolean; blinks?: boolean };
  /** Painting threads including the caller (default: one per core, max 4). */
  threads?: number;
}

export interface RenderResult {
  mp4Path: string;
  durationSeconds: number;
  frames: number;
  fps: number;
  /** Milliseconds per step: probe, decode, analysis, compose, render (frame loop incl. encoding), encodeTail, total. */
  timings: Record<string, number>;
  /** Peak resident memory in bytes (node process, ffmpeg child). */
  memory: { nodePeakRss: number; ffmpegPeakRss: number };
  /** Frames actually re-rendered (the rest repeated the previous frame). */
  renderedFrames: number;
}

/** Render stage names, in order. */
export const RENDER_STAGES = ["analyzing_audio", "composing", "rendering", "encoding"] as const;

function validateSettings(s: RenderSettings): void {
  const bad = (m: string) => new JobFailure("renderer_rejected", m, false);
  if (!Number.isInteger(s.width) || !Number.isInteger(s.height) || s.width < 2 || s.height < 2) throw bad("Invalid video size.");
  if (s.width % 2 || s.height % 2) throw bad("Video width and height must be even.");
  if (s.width * s.height > 2_073_600 || s.width > 1920 || s.height > 1920) throw bad("Video size exceeds the pixel limit.");
  if (!(s.leadInSeconds >= 0 && s.leadInSeconds <= 60) || !(s.leadOutSeconds >= 0 && s.leadOutSeconds <= 60)) throw bad("Invalid lead-in/lead-out.");
}

function readPeakRss(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const st = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /VmHWM:\s+(\d+) kB/.exec(st);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function hashSeed(rig: AvatarRig, n: number): number {
  let h = 2166136261 ^ n;
  for (let i = 0; i < rig.landmarks.length; i += 7) {
    h = Math.imul(h ^ Math.round(rig.landmarks[i][0] * 16), 16777619);
    h = Math.imul(h ^ Math.round(rig.landmarks[i][1] * 16), 16777619);
  }
  return h >>> 0;
}

const samePose = (a: FacePose, b: FacePose) =>
  a.open === b.open &&
  a.spread === b.spread &&
  a.round === b.round &&
  a.press === b.press &&
  a.blinkR === b.blinkR &&
  a.blinkL === b.blinkL &&
  a.brow === b.brow &&
  a.yaw === b.yaw &&
  a.pitch === b.pitch &&
  a.roll === b.roll &&
  a.tx === b.tx &&
  a.ty === b.ty;

export async function renderVideo(input: RenderInput): Promise<RenderResult> {
  const { settings: s, signal } = input;
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const lap = (name: string, since: number) => {
    timings[name] = Math.round(performance.now() - since);
    return performance.now();
  };
  validateSettings(s);
  if (!input.rig || !Array.isArray(input.rig.landmarks) || input.rig.landmarks.length < 468) {
    throw new JobFailure("render_failed", "The avatar rig is invalid.", false);
  }
  let nodePeak = process.memoryUsage().rss;

  // ---- audio ---------------------------------------------------------------------------------------
  input.onStage?.("analyzing_audio");
  let t = performance.now();
  const info = await probeAudio(input.audioPath, signal);
  t = lap("probe", t);
  // Decoded and analysed window by window: memory does not grow with the audio's length (lip-stream.ts).
  const { track, samples } = await analyzeAudioFile(input.audioPath, signal);
  t = lap("analysis", t);
  const audioSeconds = samples / ANALYSIS_RATE;
  if (audioSeconds > MAX_AUDIO_SECONDS + 0.5) throw tooLong(audioSeconds);
  throwIfAborted(signal);

  // ---- static canvas + mesh -----------------------------------------------------------------------
  input.onStage?.("composing");
  const W = s.width;
  const H = s.height;
  const { rgb: staticRgb, placement } = await composeCanvas(input.portraitPng, input.rig, input.background, s);
  const model = buildFaceModel(input.rig, placement);
  const L = (i: number): [number, number] => [model.base[i * 2], model.base[i * 2 + 1]];
  const mid = (a: number, b: number): [number, number] => [(L(a)[0] + L(b)[0]) / 2, (L(a)[1] + L(b)[1]) / 2];
  const skin = sampleColor(staticRgb, W, H, [L(205), L(425), L(50), L(280)], Math.max(1, model.interocular * 0.03));
  const lip = sampleColor(staticRgb, W, H, [mid(14, 17), mid(87, 84), mid(317, 314)], Math.max(1, model.interocular * 0.012));
  const colors = mouthColors(skin, lip);
  const tl = makeTimeline(audioSeconds, s.leadInSeconds, s.leadOutSeconds);
  const POOL = 3;
  const painter = await FramePainter.create(model, colors, rgbToYuv420(staticRgb, W, H), W, H, {
    poolSize: POOL,
    threads: input.threads,
  });
  const pool = painter.pool;
  const pending: Array<Promise<void> | undefined> = new Array(POOL);
  t = lap("compose", t);
  throwIfAborted(signal);

  // ---- animation schedule ----------------------------------------------------------------------------
  const seed = input.seed ?? hashSeed(input.rig, samples);
  const idle = input.animation?.headMotion !== false;
  const blinkOn = input.animation?.blinks !== false;
  const blinkEdge = 0.5;
  const blinks = blinkOn
    ? blinkSchedule(tl.durationSeconds, seed).filter((b) => b > blinkEdge && b + BLINK.close + BLINK.hold + BLINK.open < tl.durationSeconds - blinkEdge)
    : [];
  const head = makeHeadMotion(seed, model.interocular);

  // ---- encode -------------------------------------------------------------------------------------
  input.onStage?.("rendering");
  const mp4Path = join(input.workDir, "video.mp4");
  const enc = new FrameEncoder({
    width: W,
    height: H,
    fps: tl.fps,
    frames: tl.frames,
    audioPath: input.audioPath,
    channels: info.channels >= 2 ? 2 : 1,
    audioStart: tl.speechStart,
    durationSeconds: tl.durationSeconds,
    outPath: mp4Path,
    signal,
  });
  let ffPeak = 0;
  let rendered = 0;
  const xy = new Float32Array(model.count * 2);
  let prevPose: FacePose | undefined;
  let prevBuf = -1;
  let tWait = 0;
  try {
    for (let i = 0; i < tl.frames; i++) {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      if (enc.error) break;
      const ft = i / tl.fps;
      const amount = idle ? motionAmount(tl, ft) : 0;
      const m = sampleTrack(track, ft - tl.speechStart + LIP_LEAD_SECONDS);
      const g = idle ? transitionGesture(tl, ft) : { pitch: 0, brow: 0, ty: 0, holdBlink: false };
      const hm = idle ? head(ft, m.energy, m.emphasis, amount) : undefined;
      const blink = blinkOn && !g.holdBlink ? blinkAmount(blinks, ft) : 0;
      const pose: FacePose = {
        open: m.open,
        spread: m.spread,
        round: m.round,
        press: m.press,
        blinkR: blink,
        blinkL: blink,
        brow: Math.min(1, (hm?.brow ?? 0) + g.brow * amount),
        yaw: hm?.yaw ?? 0,
        pitch: (hm?.pitch ?? 0) + g.pitch * amount,
        roll: hm?.roll ?? 0,
        tx: hm?.tx ?? 0,
        ty: (hm?.ty ?? 0) + g.ty * model.interocular * amount,
      };
      let bi: number;
      if (prevPose && prevBuf >= 0 && samePose(pose, prevPose)) {
        bi = prevBuf; // unchanged frame: send the same bytes again
      } else {
        bi = (prevBuf + 1) % POOL;
        const c0 = performance.now();
        if (pending[bi]) await pending[bi];
        tWait += performance.now() - c0;
        deform(model, pose, xy);
        painter.paint(xy, pose, bi);
        rendered++;
      }
      const p = enc.write(pool[bi]);
      pending[bi] = p;
      p.catch(() => {});
      prevPose = pose;
      prevBuf = bi;
      if ((i & 31) === 0) {
        nodePeak = Math.max(nodePeak, process.memoryUsage().rss);
        ffPeak = Math.max(ffPeak, readPeakRss(enc.child.pid));
      }
    }
    await Promise.all(pending.filter(Boolean).map((p) => p!.catch(() => {})));
    t = lap("render", t);
    timings.frameWait = Math.round(tWait);
    timings.frameWarp = Math.round(painter.t.warp);
    timings.frameMouth = Math.round(painter.t.mouth);
    timings.frameJoin = Math.round(painter.t.join);
    timings.threads = painter.threads;
    input.onStage?.("encoding");
    ffPeak = Math.max(ffPeak, readPeakRss(enc.child.pid));
    const r = await enc.finish();
    t = lap("encodeTail", t);
    throwIfAborted(signal);
    if (r.code !== 0 || enc.error) {
      throw new JobFailure("render_failed", "Video encoding failed.", true, `ffmpeg exit ${r.code} ${r.signal ?? ""} ${enc.error?.message ?? ""}: ${enc.stderrTail}`);
    }
  } catch (e) {
    enc.kill();
    if (signal?.aborted) throw signal.reason ?? e;
    throw e;
  } finally {
    painter.close();
  }
  const st = await stat(mp4Path).catch(() => undefined);
  if (!st || st.size === 0) throw new JobFailure("render_failed", "Video encoding produced no output.", true);
  nodePeak = Math.max(nodePeak, process.memoryUsage().rss);
  timings.total = Math.round(performance.now() - t0);
  return {
    mp4Path,
    durationSeconds: tl.durationSeconds,
    frames: tl.frames,
    fps: tl.fps,
    timings,
    memory: { nodePeakRss: nodePeak, ffmpegPeakRss: ffPeak },
    renderedFrames: rendered,
  };
}
