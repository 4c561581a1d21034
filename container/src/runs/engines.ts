/**
 * The media engines a job uses (face analysis + preprocessing, audio probing, rendering), behind one
 * interface so the server loads them lazily (the face models are only loaded when needed) and tests
 * can substitute controllable ones.
 */
import type { AvatarRig } from "@avatar-video/contract";
import type { AudioInfo } from "../media/public";
import type { RenderInput } from "../video/public";

export type { AudioInfo, RenderInput };

export interface AvatarAssets {
  portraitPng: Buffer;
  rig: AvatarRig;
  coverJpeg: Buffer;
  /** The person matte (packages/contract/src/matte-format.ts). */
  mattePng?: Buffer;
  timings?: Record<string, number>;
}

export interface RenderOutput {
  mp4Path: string;
  /** The WebM with alpha, when the settings asked for it. */
  webmPath?: string;
  /** A segment's (`input.audioTrack`): the video's whole audio track. */
  audioTrackPath?: string;
  durationSeconds: number;
  frames: number;
  fps: number;
  /** A segment's frames [start, end) of the timeline (`timeline.frames` in all). */
  range?: { start: number; end: number };
  timeline?: { frames: number };
  timings?: Record<string, number>;
}

/** The join of a split render's parts (files of this run, in order) and its audio track. */
export interface JoinRequest {
  parts: string[];
  audioTrack: string;
  /** Frames the joined video must hold. */
  frames: number;
  workDir: string;
  signal?: AbortSignal;
}

export interface Engines {
  createAvatarAssets(bytes: Buffer, opts?: { signal?: AbortSignal }): Promise<AvatarAssets>;
  probeAudio(path: string, opts?: { signal?: AbortSignal }): Promise<AudioInfo>;
  renderVideo(input: RenderInput): Promise<RenderOutput>;
  joinVideo(req: JoinRequest): Promise<{ mp4Path: string; frames: number; fps: number; durationSeconds: number }>;
  /** The matte of a stored portrait (an Avatar made before mattes, on first use). */
  computeMatte(portraitPng: Buffer, rig: AvatarRig): Promise<Buffer>;
  /** Optional warm-up (face and segmentation models) run once in the background after the server starts. */
  warm?(): Promise<void>;
}

// Each engine's module is imported on its first use: the server starts without the face models, the
// segmentation model or the render path loaded.
export function defaultEngines(): Engines {
  return {
    async createAvatarAssets(bytes, opts) {
      const { createAvatarAssets } = await import("../avatar/public");
      return createAvatarAssets(bytes, { signal: opts?.signal });
    },
    async probeAudio(path, opts) {
      const { probeAudio } = await import("../media/public");
      return probeAudio(path, opts?.signal);
    },
    async renderVideo(input) {
      const { renderVideo } = await import("../video/public");
      return renderVideo(input);
    },
    async joinVideo(req) {
      const { FPS, joinVideo } = await import("../video/public");
      const timeline = { frames: req.frames, durationSeconds: req.frames / FPS };
      const { parts: segments, audioTrack, workDir, signal } = req;
      const joined = await joinVideo({ segments, audioTrack, timeline, workDir, signal });
      return { ...joined, fps: FPS, durationSeconds: timeline.durationSeconds };
    },
    async computeMatte(portraitPng, rig) {
      const { portraitMatte } = await import("../analysis/public");
      return portraitMatte(portraitPng, rig.landmarks);
    },
    async warm() {
      const { warmHuman, warmMatte } = await import("../analysis/public");
      await warmHuman();
      await warmMatte();
    },
  };
}
