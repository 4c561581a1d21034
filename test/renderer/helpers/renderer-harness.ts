/**
 * Runs the renderer in-process against a fake Worker and local media sources, with shrunk deadlines.
 * Engines are fakes by default (fast, controllable); tests that need the real face/audio/video engines
 * load them with `realEngine()` and skip while those modules are not there yet.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { loadConfig, type RendererConfig, createLogger } from "../../../container/src/io/public";
import {
  type AudioInfo,
  type AvatarAssets,
  type Engines,
  type RenderInput,
  type RenderOutput,
  defaultEngines,
} from "../../../container/src/runs/public";
import type { AvatarRig } from "@avatar-video/contract";
import { createRenderer, type Renderer } from "../../../container/src/server";
import { wavHeader } from "../../../scripts/lib/wav";
import { JOB_TOKEN, type FakeWorker, startFakeWorker } from "./renderer-worker";
import { type SourceServer, startSources } from "./renderer-sources";

export const RENDERER_TOKEN = "renderer-token-for-tests-0123456789";

/** A PCM WAV: 440 Hz tone bursts separated by silence. */
export function makeWav(seconds: number, sampleRate = 16_000): Buffer {
  const n = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const on = Math.floor(t * 4) % 2 === 0;
    data.writeInt16LE(on ? Math.round(8000 * Math.sin(2 * Math.PI * 440 * t)) : 0, i * 2);
  }
  return Buffer.concat([wavHeader(sampleRate, data.length), data]);
}

/** A plain image standing in for a portrait, and a rig of the right shape for it. */
export async function syntheticAvatar(size = 256): Promise<{ portraitPng: Buffer; rig: AvatarRig; coverJpeg: Buffer }> {
  const portraitPng = await sharp({ create: { width: size, height: size, channels: 3, background: "#c08060" } })
    .png()
    .toBuffer();
  const coverJpeg = await sharp(portraitPng).jpeg().toBuffer();
  const landmarks: [number, number, number][] = Array.from({ length: 478 }, (_, i) => [
    size * 0.3 + (i % 22) * (size * 0.018),
    size * 0.25 + Math.floor(i / 22) * (size * 0.022),
    0,
  ]);
  const rig: AvatarRig = {
    version: 1,
    portrait: { width: size, height: size },
    landmarks,
    faceBox: { x: size * 0.25, y: size * 0.2, width: size * 0.5, height: size * 0.6 },
    pose: { yaw: 0, pitch: 0, roll: 0 },
    metrics: { interocular: size * 0.25, mouthWidth: size * 0.15, lipGap: 0, eyeOpening: { right: 4, left: 4 } },
  };
  return { portraitPng, rig, coverJpeg };
}

/** A matte standing in for a person: opaque in the middle half, transparent around it. */
export function syntheticMatte(width: number, height: number): Promise<Buffer> {
  const alpha = Buffer.alloc(width * height);
  for (let y = height >> 2; y < (3 * height) >> 2; y++)
    alpha.fill(255, y * width + (width >> 2), y * width + ((3 * width) >> 2));
  return sharp(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

export interface FakeEngines extends Engines {
  calls: { createAvatarAssets: number; probeAudio: number; renderVideo: RenderInput[]; computeMatte: number };
  /** The render double's duration and behaviour (set per test). */
  renderMs: number;
  renderStages: string[];
  renderError?: unknown;
  /** Set while the render double runs; `aborted` once its signal fired. */
  renderState: { started: boolean; aborted: boolean };
  avatarAssets?: AvatarAssets;
  avatarError?: unknown;
  audioInfo: AudioInfo;
}

export function fakeEngines(): FakeEngines {
  const e: FakeEngines = {
    calls: { createAvatarAssets: 0, probeAudio: 0, renderVideo: [], computeMatte: 0 },
    renderMs: 20,
    renderStages: ["animating", "encoding"],
    renderState: { started: false, aborted: false },
    audioInfo: { durationSeconds: 1, codec: "pcm_s16le", sampleRate: 16000, channels: 1 },
    async createAvatarAssets() {
      e.calls.createAvatarAssets++;
      if (e.avatarError) throw e.avatarError;
      return e.avatarAssets ?? (await syntheticAvatar());
    },
    async probeAudio() {
      e.calls.probeAudio++;
      return e.audioInfo;
    },
    // The real join (ffmpeg, -c copy): cheap, and a split render's tests join what the render double wrote.
    joinVideo: (req) => defaultEngines().joinVideo(req),
    async computeMatte(_portraitPng, rig) {
      e.calls.computeMatte++;
      return syntheticMatte(rig.portrait.width, rig.portrait.height);
    },
    async renderVideo(input: RenderInput): Promise<RenderOutput> {
      e.calls.renderVideo.push(input);
      e.renderState = { started: true, aborted: false };
      input.signal?.addEventListener("abort", () => (e.renderState.aborted = true), { once: true });
      for (const s of e.renderStages) {
        input.onStage?.(s);
        await new Promise((r) => setTimeout(r, e.renderMs / e.renderStages.length));
        input.signal?.throwIfAborted();
      }
      if (e.renderError) throw e.renderError;
      const mp4Path = path.join(input.workDir, "out.mp4");
      await writeFile(mp4Path, Buffer.alloc(3000, 9));
      if (!input.settings.alpha) return { mp4Path, durationSeconds: 2.4, frames: 60, fps: 25 };
      const webmPath = path.join(input.workDir, "out.webm");
      await writeFile(webmPath, Buffer.alloc(2000, 7));
      return { mp4Path, webmPath, durationSeconds: 2.4, frames: 60, fps: 25 };
    },
  };
  return e;
}

/** A dispatch as the tests build and change it (also into invalid ones): the fields they read or set. */
export interface TestDispatch {
  kind: string;
  jobId: string;
  attempt: number;
  outputs: Record<string, string>;
  [field: string]: unknown;
}

/** A video dispatch as `videoDispatch` builds it (`avatarId`: the Avatar its stored objects belong to). */
export interface TestVideoDispatch extends TestDispatch {
  avatar: Record<string, string>;
  settings: Record<string, unknown>;
  avatarId: string;
}

export interface Harness {
  renderer: Renderer;
  config: RendererConfig;
  url: string;
  worker: FakeWorker;
  sources: SourceServer;
  engines: Engines;
  workDir: string;
  logs: string[];
  /** POST /jobs: the status and the JSON object answered (read only where the renderer sends one: all but 401). */
  post(body: unknown, token?: string | null): Promise<{ status: number; body: Record<string, unknown> }>;
  avatarDispatch(over?: Record<string, unknown>): TestDispatch;
  videoDispatch(over?: Record<string, unknown>): Promise<TestVideoDispatch>;
  /** Posts a dispatch, expects 202, and waits for its terminal event. */
  run(dispatch: TestDispatch): Promise<import("./renderer-worker").SeenEvent>;
  close(): Promise<void>;
}

export const FAST_ENV: Record<string, string> = {
  HEARTBEAT_MS: "2000",
  CALLBACK_RETRIES: "3",
  CALLBACK_BACKOFF_MS: "20",
  CALLBACK_BACKOFF_MAX_MS: "100",
  AVATAR_FIRST_BYTE_MS: "3000",
  AVATAR_TRANSFER_DEADLINE_MS: "10000",
  SHUTDOWN_GRACE_MS: "2000",
};

export async function startHarness(opts: { env?: Record<string, string>; engines?: Engines } = {}): Promise<Harness> {
  const worker = await startFakeWorker();
  const sources = await startSources();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "renderer-test-"));
  const config = loadConfig({
    RENDERER_TOKEN,
    PORT: "0",
    HOST: "127.0.0.1",
    SOURCE_ALLOWLIST: sources.hostPort,
    WORK_DIR: workDir,
    ...FAST_ENV,
    ...opts.env,
  });
  const logs: string[] = [];
  const engines = opts.engines ?? fakeEngines();
  const renderer = createRenderer(config, {
    engines,
    log: createLogger({ service: "renderer" }, (l) => logs.push(l), "debug"),
  });
  const port = await renderer.listen();
  const url = `http://127.0.0.1:${port}`;
  const avatar = await syntheticAvatar();

  const h: Harness = {
    renderer,
    config,
    url,
    worker,
    sources,
    engines,
    workDir,
    logs,
    async post(body, token = RENDERER_TOKEN) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const res = await fetch(`${url}/jobs`, {
        method: "POST",
        headers,
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    avatarDispatch(over = {}) {
      const jobId = (over.jobId as string) ?? randomUUID();
      const attempt = (over.attempt as number) ?? 1;
      return {
        kind: "avatar",
        jobId,
        attempt,
        callbackUrl: worker.callbackUrl(jobId, attempt),
        token: JOB_TOKEN,
        imageUrl: sources.url("/status/404"),
        outputs: {
          portrait: worker.objectUrl(`avatars/${jobId}/portrait.png`),
          rig: worker.objectUrl(`avatars/${jobId}/rig.json`),
          cover: worker.objectUrl(`avatars/${jobId}/cover.jpg`),
        },
        ...over,
      };
    },
    async videoDispatch(over = {}) {
      const jobId = (over.jobId as string) ?? randomUUID();
      const attempt = (over.attempt as number) ?? 1;
      const avatarId = randomUUID();
      worker.objects.set(`avatars/${avatarId}/portrait.png`, { body: avatar.portraitPng, contentType: "image/png" });
      worker.objects.set(`avatars/${avatarId}/rig.json`, {
        body: Buffer.from(JSON.stringify(avatar.rig)),
        contentType: "application/json",
      });
      return {
        kind: "video",
        jobId,
        attempt,
        callbackUrl: worker.callbackUrl(jobId, attempt),
        token: JOB_TOKEN,
        avatar: {
          portrait: worker.objectUrl(`avatars/${avatarId}/portrait.png`),
          rig: worker.objectUrl(`avatars/${avatarId}/rig.json`),
        },
        audioUrl: sources.file(`${jobId}.wav`, makeWav(0.5), "audio/wav"),
        settings: {
          width: 128,
          height: 128,
          fit: "crop",
          backgroundColor: "#102030",
          backgroundFit: "cover",
          leadInSeconds: 0,
          leadOutSeconds: 0,
        },
        outputs: { video: worker.objectUrl(`videos/${jobId}.mp4`) },
        avatarId,
        ...over,
      };
    },
    async run(dispatch) {
      const res = await h.post(dispatch);
      if (res.status !== 202) throw new Error(`dispatch answered ${res.status}: ${JSON.stringify(res.body)}`);
      return worker.terminal(dispatch.jobId, dispatch.attempt);
    },
    async close() {
      await renderer.shutdown();
      await worker.close();
      await sources.close();
      await rm(workDir, { recursive: true, force: true });
    },
  };
  return h;
}

/** Waits until `pred` holds (polling), or fails after `timeoutMs`. */
export async function until(
  pred: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
