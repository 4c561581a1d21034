/**
 * The live motion stream (packages/motion-model/src/stream.ts) against the whole-file analysis the video
 * renderer uses: the same audio must move the mouth alike, whatever the chunking and the sample rate, with
 * at most 80 ms of look-ahead, and the life curves (blinks, head) are the renderer's own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyzeLipSync,
  ANALYSIS_RATE,
  blinkAmount,
  blinkSchedule,
  LIP_LEAD_SECONDS,
  makeHeadMotion,
  MotionStream,
  prng,
  sampleTrack,
  type MotionFrame,
} from "@avatar-video/motion-model";
import { decodeMono } from "../../container/src/media/public";
import { encodeAudio, speechLike, synthSpeech } from "./helpers/media-audio";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "motion-stream-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Streams `pcm` in chunks of random length (1…maxChunk samples) and returns every frame. */
function stream(pcm: Float32Array, rate: number, maxChunk: number, seed = 11): MotionFrame[] {
  const rand = prng(seed);
  const s = new MotionStream(rate, seed);
  const frames: MotionFrame[] = [];
  for (let i = 0; i < pcm.length; ) {
    const n = 1 + Math.floor(rand() * maxChunk);
    frames.push(...s.pushSamples(pcm.subarray(i, i + n)));
    i += n;
  }
  frames.push(...s.finish());
  return frames;
}

/** Mean absolute difference and correlation of the streamed mouth curves with the batch track (t ≥ 1 s). */
function agreement(frames: MotionFrame[], pcm16k: Float32Array) {
  const track = analyzeLipSync(pcm16k);
  const keys = [
    ["mouthOpen", "open"],
    ["mouthWide", "spread"],
    ["mouthRound", "round"],
    ["lipsClosed", "press"],
  ] as const;
  const out: Record<string, { mae: number; corr: number }> = {};
  for (const [fk, tk] of keys) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const f of frames) {
      if (f.t < 1) continue;
      xs.push(f[fk]);
      ys.push(sampleTrack(track, f.t + LIP_LEAD_SECONDS)[tk]);
    }
    const n = xs.length;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    let sxy = 0,
      sxx = 0,
      syy = 0,
      mae = 0;
    for (let i = 0; i < n; i++) {
      sxy += (xs[i] - mx) * (ys[i] - my);
      sxx += (xs[i] - mx) ** 2;
      syy += (ys[i] - my) ** 2;
      mae += Math.abs(xs[i] - ys[i]);
    }
    out[fk] = { mae: mae / n, corr: sxx && syy ? sxy / Math.sqrt(sxx * syy) : 1 };
  }
  return out;
}

describe("streamed motion matches the renderer's analysis of the same audio", () => {
  const pcm = synthSpeech(speechLike(14, 5), ANALYSIS_RATE);

  it("at 16 kHz in chunks of any size: every frame, the same mouth curves", () => {
    for (const maxChunk of [7, 640, 5000]) {
      const frames = stream(pcm, ANALYSIS_RATE, maxChunk);
      expect(frames.length).toBe(Math.ceil((pcm.length / ANALYSIS_RATE) * 25));
      expect(frames.map((f) => f.frame)).toEqual(frames.map((_, i) => i));
      const a = agreement(frames, pcm);
      expect(a.mouthOpen.mae).toBeLessThan(0.02);
      expect(a.mouthOpen.corr).toBeGreaterThan(0.98);
      for (const k of ["mouthWide", "mouthRound"]) {
        expect(a[k].mae).toBeLessThan(0.03);
        expect(a[k].corr).toBeGreaterThan(0.95);
      }
      expect(a.lipsClosed.mae).toBeLessThan(0.03);
    }
  });

  it("at 8, 44.1 and 48 kHz (resampled in the stream, by ffmpeg for the renderer)", async () => {
    for (const rate of [8_000, 44_100, 48_000]) {
      const src = synthSpeech(speechLike(10, 9), rate);
      const path = join(dir, `s-${rate}.wav`);
      await encodeAudio(src, rate, path);
      const pcm16k = await decodeMono(path, ANALYSIS_RATE);
      // The stream gets the same 16-bit samples the file holds.
      const q = src.map((x) => Math.max(-32768, Math.min(32767, Math.round(x * 32768))) / 32768);
      const frames = stream(q, rate, 2048);
      expect(Math.abs(frames.length - Math.ceil((pcm16k.length / ANALYSIS_RATE) * 25))).toBeLessThanOrEqual(1);
      const a = agreement(frames, pcm16k);
      expect(a.mouthOpen.mae, `${rate} Hz`).toBeLessThan(0.03);
      expect(a.mouthOpen.corr, `${rate} Hz`).toBeGreaterThan(0.97);
      expect(a.mouthWide.corr, `${rate} Hz`).toBeGreaterThan(0.9);
    }
  });

  it("blinks and head motion are the renderer's curves for the same seed", () => {
    const seed = 23;
    const frames = stream(pcm, ANALYSIS_RATE, 640, seed);
    const track = analyzeLipSync(pcm);
    const blinks = blinkSchedule(600, seed, 0.8);
    const head = makeHeadMotion(seed, 1);
    let blinking = 0;
    let worst = 0;
    for (const f of frames) {
      if (f.t < 0.5) continue; // the stream eases its head motion in over the first half second
      const m = sampleTrack(track, f.t + LIP_LEAD_SECONDS);
      const h = head(f.t, m.energy, m.emphasis, 1);
      expect(f.blink).toBeCloseTo(blinkAmount(blinks, f.t), 3);
      // Head motion grows a little with speech energy and nods on emphasis: near-equal, not identical.
      worst = Math.max(
        worst,
        Math.abs(f.head.yaw - h.yaw),
        Math.abs(f.head.pitch - h.pitch),
        Math.abs(f.head.roll - h.roll),
      );
      if (f.blink > 0.5) blinking++;
    }
    expect(blinking).toBeGreaterThan(0);
    expect(worst).toBeLessThan(0.2); // degrees
  });
});

describe("streaming rules", () => {
  it("sends each frame once its 40 ms plus at most 80 ms of look-ahead has arrived", () => {
    for (const rate of [16_000, 48_000, 8_000]) {
      const src = synthSpeech(speechLike(4, 2), rate);
      const s = new MotionStream(rate, 1);
      const step = Math.round(rate / 1000); // 1 ms chunks
      for (let i = 0; i < src.length; i += step) {
        const received = Math.min(src.length, i + step) / rate;
        for (const f of s.pushSamples(src.subarray(i, i + step))) {
          expect(received, `frame ${f.frame} at ${rate} Hz`).toBeLessThanOrEqual((f.frame + 1) * 0.04 + 0.08 + 0.0011);
        }
      }
    }
  });

  it("silence: the mouth is exactly closed, and idle frames come one per 40 ms of silence", () => {
    const s = new MotionStream(16_000, 3);
    const frames: MotionFrame[] = [];
    for (let i = 0; i < 250; i++) frames.push(...s.pushSilence(0.04)); // 10 s
    expect(frames.length).toBeGreaterThanOrEqual(247);
    expect(frames.length).toBeLessThanOrEqual(250);
    for (const f of frames) {
      expect([f.mouthOpen, f.mouthWide, f.mouthRound, f.lipsClosed]).toEqual([0, 0, 0, 0]);
    }
    // Blinks go on (12–20 a minute on average; at least one in 10 s) and the head keeps moving.
    expect(frames.some((f) => f.blink > 0.9)).toBe(true);
    expect(new Set(frames.map((f) => f.head.yaw)).size).toBeGreaterThan(100);
  });

  it("PCM16 bytes split at odd offsets decode like the whole buffer", () => {
    const src = synthSpeech(speechLike(3, 4), 16_000);
    const bytes = new Uint8Array(src.length * 2);
    const view = new DataView(bytes.buffer);
    src.forEach((x, i) => view.setInt16(i * 2, Math.max(-32768, Math.min(32767, Math.round(x * 32767))), true));
    const whole = new MotionStream(16_000, 1);
    const a = [...whole.pushPcm16(bytes), ...whole.finish()];
    const split = new MotionStream(16_000, 1);
    const b: MotionFrame[] = [];
    for (let i = 0; i < bytes.length; i += 333) b.push(...split.pushPcm16(bytes.subarray(i, i + 333)));
    b.push(...split.finish());
    expect(b).toEqual(a);
  });
});
