/**
 * The media engines a job uses (face analysis + preprocessing, audio probing, rendering), behind one
 * interface so the server loads them lazily (the face models are only loaded when needed) and tests
 * can substitute controllable ones.
 */
import type { AvatarRig } from "@avatar-video/contract";
import type { AudioInfo } from "../audio/probe";
import type { RenderInput } from "../video/render-input";

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
  durationSeconds: number;
  frames: number;
  fps: number;
  timings?: Record<string, number>;
}

export interface Engines {
  createAvatarAssets(bytes: Buffer, opts?: { signal?: AbortSignal }): Promise<AvatarAssets>;
  probeAudio(path: string, opts?: { signal?: AbortSignal }): Promise<AudioInfo>;
  renderVideo(input: RenderInput): Promise<RenderOutput>;
  /** The matte of a stored portrait (an Avatar made before mattes, on first use). */
  computeMatte(portraitPng: Buffer, rig: AvatarRig): Promise<Buffer>;
  /** Optional warm-up (face and segmentation models) run once in the background after the server starts. */
  warm?(): Promise<void>;
}

// Module paths of the engines (owned by the face/avatar and audio/video modules). Imported on first use.
const AVATAR_MODULE = "../avatar/preprocess";
const AUDIO_MODULE = "../audio/probe";
const VIDEO_MODULE = "../video/render";
const HUMAN_MODULE = "../face/human";
const MATTE_MODULE = "../matte/person-matte";

async function load<T>(specifier: string, name: string): Promise<T> {
  const mod = (await import(specifier)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== "function") throw new Error(`${specifier} does not export ${name}()`);
  return fn as T;
}

export function defaultEngines(): Engines {
  return {
    async createAvatarAssets(bytes, opts) {
      const fn = await load<(b: Buffer, o?: { signal?: AbortSignal }) => Promise<AvatarAssets>>(
        AVATAR_MODULE,
        "createAvatarAssets",
      );
      return fn(bytes, { signal: opts?.signal });
    },
    async probeAudio(path, opts) {
      const fn = await load<(p: string, signal?: AbortSignal) => Promise<AudioInfo>>(AUDIO_MODULE, "probeAudio");
      return fn(path, opts?.signal);
    },
    async renderVideo(input) {
      const fn = await load<(i: RenderInput) => Promise<RenderOutput>>(VIDEO_MODULE, "renderVideo");
      return fn(input);
    },
    async computeMatte(portraitPng, rig) {
      const fn = await load<(p: Buffer, l: AvatarRig["landmarks"]) => Promise<Buffer>>(MATTE_MODULE, "portraitMatte");
      return fn(portraitPng, rig.landmarks);
    },
    async warm() {
      await (await load<() => Promise<void>>(HUMAN_MODULE, "warmHuman"))();
      await (await load<() => Promise<void>>(MATTE_MODULE, "warmMatte"))();
    },
  };
}
