/**
 * renderVideo end to end on a real fixture portrait (through createAvatarAssets) with synthesised
 * speech-like audio: container/codec/timeline checks with ffprobe, the mouth moving with sound and still
 * in silence, blinks, composition fits at the canvas corners, failure codes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readSync, closeSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blinkSchedule } from "@avatar-video/motion-model";
import { composeCanvas, placePortrait } from "../../container/src/paint/public";
import { renderVideo, RENDER_STAGES, type RenderInput, type RenderSettings } from "../../container/src/video/public";
import {
  encodeAudio,
  extractAllGray,
  extractFramesRgb,
  FFMPEG,
  ffprobeJson,
  type Probe,
  synthSpeech,
  type Segment,
} from "./helpers/media-audio";
import { featureBox, SMALL_SQUARE, testAvatar, type TestAvatar } from "./helpers/media-avatar";
import { failureCode } from "./helpers/failure-code";

let dir: string;
let avatar: TestAvatar;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "video-test-"));
  avatar = await testAvatar("single-phone");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RATE = 24_000;
const base: RenderSettings = SMALL_SQUARE;

async function audioFile(segs: Segment[], format: "wav" | "mp3" | "m4a" | "ogg" = "wav"): Promise<string> {
  const p = join(dir, `in-${Math.random().toString(36).slice(2)}.${format}`);
  await encodeAudio(synthSpeech(segs, RATE), RATE, p, format);
  return p;
}

async function render(audioPath: string, settings: Partial<RenderSettings>, extra: Partial<RenderInput> = {}) {
  const workDir = mkdtempSync(join(dir, "job-"));
  return renderVideo({
    portraitPng: avatar.portraitPng,
    rig: avatar.rig,
    // The Avatar's matte, as a job hands it over: a background image puts the person in front of it.
    matte: avatar.mattePng,
    audioPath,
    settings: { ...base, ...settings },
    workDir,
    seed: 1234,
    ...extra,
  });
}

/** Top-level MP4 box types in file order. */
function topLevelBoxes(path: string): string[] {
  const fd = openSync(path, "r");
  const out: string[] = [];
  try {
    let pos = 0;
    const head = Buffer.alloc(16);
    for (let k = 0; k < 64; k++) {
      if (readSync(fd, head, 0, 16, pos) < 8) break;
      let size = head.readUInt32BE(0);
      const type = head.toString("latin1", 4, 8);
      if (size === 1) size = Number(head.readBigUInt64BE(8));
      out.push(type);
      if (size < 8) break;
      pos += size;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Decode the output's audio to mono float PCM at 48 kHz. */
function decodeAudio(path: string): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const p = spawn(FFMPEG, [
      "-v",
      "error",
      "-i",
      path,
      "-map",
      "0:a:0",
      "-ac",
      "1",
      "-ar",
      "48000",
      "-f",
      "f32le",
      "pipe:1",
    ]);
    const chunks: Buffer[] = [];
    p.stdout.on("data", (b: Buffer) => chunks.push(b));
    p.on("error", reject);
    p.on("close", () => {
      const b = Buffer.concat(chunks);
      const f = new Float32Array(b.length / 4);
      for (let i = 0; i < f.length; i++) f[i] = b.readFloatLE(i * 4);
      resolve(f);
    });
  });
}

const meanAbsDiff = (a: Buffer, b: Buffer, W: number, r: { x0: number; y0: number; x1: number; y1: number }) => {
  let s = 0;
  let n = 0;
  for (let y = r.y0; y < r.y1; y++)
    for (let x = r.x0; x < r.x1; x++) {
      s += Math.abs(a[y * W + x] - b[y * W + x]);
      n++;
    }
  return s / n;
};
/** Pixels that became much darker than in the reference frame (the opened mouth's cavity). */
const darkened = (
  a: Buffer,
  ref: Buffer,
  W: number,
  r: { x0: number; y0: number; x1: number; y1: number },
  by: number,
) => {
  let n = 0;
  for (let y = r.y0; y < r.y1; y++) for (let x = r.x0; x < r.x1; x++) if (ref[y * W + x] - a[y * W + x] > by) n++;
  return n;
};

describe("output file", () => {
  it("is H.264 yuv420p + AAC 48 kHz at constant 25 fps, faststart, with the documented timeline", async () => {
    // Speech starts at the very first sample of the source, so its position in the output is measurable.
    const audio = await audioFile(
      [
        { kind: "vowel", vowel: "AA", seconds: 0.3 },
        { kind: "silence", seconds: 0.2 },
        { kind: "vowel", vowel: "EE", seconds: 0.3 },
        { kind: "silence", seconds: 0.4 },
      ],
      "mp3",
    );
    const stages: string[] = [];
    const r = await render(
      audio,
      { width: 320, height: 240, leadInSeconds: 0.3, leadOutSeconds: 0.25 },
      { onStage: (s) => stages.push(s) },
    );
    expect(stages).toEqual([...RENDER_STAGES]);

    const probe: Probe = await ffprobeJson(r.mp4Path);
    const audioSeconds = Number(((await ffprobeJson(audio)) as Probe).format.duration);
    const v = probe.streams.find((s) => s.codec_type === "video")!;
    const a = probe.streams.find((s) => s.codec_type === "audio")!;
    expect(v.codec_name).toBe("h264");
    expect(v.pix_fmt).toBe("yuv420p");
    expect([v.width, v.height]).toEqual([320, 240]);
    expect(v.r_frame_rate).toBe("25/1");
    expect(v.avg_frame_rate).toBe("25/1");
    expect(a.codec_name).toBe("aac");
    expect(Number(a.sample_rate)).toBe(48000);

    // Duration = leadIn + opening 0.5 + audio + closing 0.5 + leadOut, rounded to frames.
    const expected = Math.round((0.3 + 0.5 + audioSeconds + 0.5 + 0.25) * 25);
    expect(Math.abs(r.frames - expected)).toBeLessThanOrEqual(1);
    expect(r.fps).toBe(25);
    expect(r.durationSeconds).toBeCloseTo(r.frames / 25, 6);
    const frames = await extractAllGray(r.mp4Path, 320, 240);
    expect(frames.length).toBe(r.frames);
    expect(Math.abs(Number(probe.format.duration) - r.durationSeconds)).toBeLessThanOrEqual(1 / 25);
    expect(Math.abs(Number(a.duration) - r.durationSeconds)).toBeLessThanOrEqual(1 / 25);

    // Both streams start together; the index (moov) precedes the media data (faststart).
    expect(Math.abs(Number(v.start_time) - Number(a.start_time))).toBeLessThan(1 / 25);
    const boxes = topLevelBoxes(r.mp4Path);
    expect(boxes.indexOf("moov")).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));

    // The speech starts exactly at leadIn + opening (within one frame).
    const pcm = await decodeAudio(r.mp4Path);
    let first = -1;
    for (let i = 0; i < pcm.length; i++)
      if (Math.abs(pcm[i]) > 0.02) {
        first = i;
        break;
      }
    expect(Math.abs(first / 48000 - 0.8)).toBeLessThan(1 / 25);
  });
});

describe("animation", () => {
  it("moves the mouth with the sound and keeps it exactly still in silence", async () => {
    const segs: Segment[] = [
      { kind: "silence", seconds: 0.8 },
      { kind: "vowel", vowel: "AA", seconds: 0.6, level: -8 },
      { kind: "silence", seconds: 0.8 },
      { kind: "vowel", vowel: "EE", seconds: 0.5, level: -8 },
      { kind: "silence", seconds: 0.5 },
      { kind: "vowel", vowel: "OO", seconds: 0.5, level: -8 },
      { kind: "silence", seconds: 0.6 },
    ];
    const audio = await audioFile(segs, "m4a");
    const r = await render(audio, {}, { animation: { headMotion: false, blinks: false } });
    const frames = await extractAllGray(r.mp4Path, 256, 256);
    const place = placePortrait(avatar.rig, avatar.rig.portrait.width, avatar.rig.portrait.height, base);
    const mouth = featureBox(avatar.rig, place, [61, 291, 0, 17, 13, 14], 0.03 * 256);
    const speech0 = 0.5; // leadIn 0 + opening 0.5
    const at = (t: number) => Math.round((speech0 + t) * 25);
    // Segment windows (seconds from the speech start).
    const aa = [0.8, 1.4];
    const sil = [1.4, 2.2];
    const ee = [2.2, 2.7];
    const oo = [3.2, 3.7];
    const rest = frames[1];

    // Silence (after the release settled): consecutive frames are identical around the mouth.
    // (until 0.15 s before the vowel: the mouth leads the sound by ~50 ms plus the AAC pre-echo)
    for (let f = 1; f < at(0.65); f++) expect(meanAbsDiff(frames[f], frames[f - 1], 256, mouth)).toBeLessThan(0.05);
    // (from 0.42 s: x264 still re-codes a block of the first repeated frames after the release, up to ~0.07 grey
    // levels; until 0.2 s before the next vowel: it codes the frames before an onset as B-frames predicted from
    // it, so identical input frames there decode up to ~0.3 grey levels apart; the repeat count below, from
    // 0.35 s, covers both exactly)
    for (let f = at(sil[0] + 0.42); f < at(sil[1] - 0.2); f++)
      expect(meanAbsDiff(frames[f], frames[f - 1], 256, mouth)).toBeLessThan(0.05);
    // The renderer itself re-sends the previous frame, byte for byte, through every settled silence.
    const repeats = at(0.65) - 1 + (at(sil[1] - 0.1) - at(sil[0] + 0.35));
    expect(r.frames - r.renderedFrames).toBeGreaterThanOrEqual(repeats);
    // …and back at the rest pose (up to the encoder's residual on a re-coded block).
    expect(meanAbsDiff(frames[at(sil[1] - 0.1)], rest, 256, mouth)).toBeLessThan(2.5);

    // During sound the mouth region changes.
    const mid = (w: number[]) => at((w[0] + w[1]) / 2);
    expect(meanAbsDiff(frames[mid(aa)], rest, 256, mouth)).toBeGreaterThan(4);
    expect(meanAbsDiff(frames[mid(ee)], rest, 256, mouth)).toBeGreaterThan(1.5);

    // The opening (dark cavity) is larger for the loud open vowel than for silence, EE or OO.
    const dark = (f: number) => darkened(frames[f], rest, 256, mouth, 40);
    const dAA = dark(mid(aa));
    expect(dark(at(sil[1] - 0.1))).toBeLessThan(dAA / 10);
    expect(dAA).toBeGreaterThan(40);
    expect(dAA).toBeGreaterThan(dark(mid(ee)) * 1.5);
    expect(dAA).toBeGreaterThan(dark(mid(oo)) * 1.5);
  });

  it("blinks (and nothing else moves when head motion is off and the audio is silent)", async () => {
    const audio = await audioFile([{ kind: "silence", seconds: 5 }], "ogg");
    const r = await render(audio, {}, { animation: { headMotion: false, blinks: true } });
    const frames = await extractAllGray(r.mp4Path, 256, 256);
    const place = placePortrait(avatar.rig, avatar.rig.portrait.width, avatar.rig.portrait.height, base);
    const eyes = featureBox(avatar.rig, place, [33, 133, 159, 145, 263, 362, 386, 374], 0.02 * 256);
    const mouth = featureBox(avatar.rig, place, [61, 291, 0, 17], 0.04 * 256);
    const eyeDiff = frames.map((f) => meanAbsDiff(f, frames[0], 256, eyes));
    const mouthDiff = frames.map((f) => meanAbsDiff(f, frames[0], 256, mouth));
    expect(Math.max(...mouthDiff)).toBeLessThan(0.5);
    // A blink changes the eye region a lot for a few frames (close 0.1 s, hold 0.05 s, open 0.15 s).
    const blinkFrames = eyeDiff.filter((d) => d > 6).length;
    expect(blinkFrames).toBeGreaterThanOrEqual(2);
    const expectedBlinks = blinkSchedule(r.durationSeconds, 1234).filter(
      (t) => t > 0.5 && t + 0.3 < r.durationSeconds - 0.5,
    );
    expect(expectedBlinks.length).toBeGreaterThanOrEqual(1);
    for (const t of expectedBlinks) expect(eyeDiff[Math.round((t + 0.12) * 25)]).toBeGreaterThan(6);
    // Between blinks the eyes are back open: most frames show no eye change.
    expect(eyeDiff.filter((d) => d < 2).length).toBeGreaterThan(frames.length * 0.6);
  });

  it("blinks at a human rate and keeps the head moving a little (alive, recognisable)", async () => {
    const minute = blinkSchedule(600, 99).length / 10;
    expect(minute).toBeGreaterThanOrEqual(14);
    expect(minute).toBeLessThanOrEqual(21);

    const audio = await audioFile([{ kind: "silence", seconds: 4 }], "wav");
    const r = await render(audio, {}, { animation: { blinks: false } });
    const frames = await extractAllGray(r.mp4Path, 256, 256);
    const place = placePortrait(avatar.rig, avatar.rig.portrait.width, avatar.rig.portrait.height, base);
    const face = featureBox(avatar.rig, place, [10, 152, 234, 454], 0);
    // The first frame is the still portrait (neutral pose)…
    const { rgb } = await composeCanvas(avatar.portraitPng, avatar.rig, undefined, base);
    const stillGray = Buffer.from(
      await sharp(Buffer.from(rgb), { raw: { width: 256, height: 256, channels: 3 } })
        .greyscale()
        .raw()
        .toBuffer(),
    );
    expect(meanAbsDiff(frames[0], stillGray, 256, face)).toBeLessThan(2.5);
    // …then idle motion: frames are not frozen, yet differences stay small.
    const diffs = frames.map((f) => meanAbsDiff(f, frames[0], 256, face));
    expect(Math.max(...diffs)).toBeGreaterThan(0.8);
    expect(Math.max(...diffs)).toBeLessThan(12);
    // The motion eases back to the neutral pose for the last frame (encoder residual aside).
    expect(meanAbsDiff(frames[frames.length - 1], frames[0], 256, face)).toBeLessThan(3);
    expect(meanAbsDiff(frames[frames.length - 1], frames[frames.length - 2], 256, face)).toBeLessThan(0.5);
  });
});

describe("composition", () => {
  const MAGENTA = "#ff00ff";
  const corners = async (mp4: string, W: number, H: number) => {
    const [f] = await extractFramesRgb(mp4, W, H, [0]);
    const px = (x: number, y: number) => [f[(y * W + x) * 3], f[(y * W + x) * 3 + 1], f[(y * W + x) * 3 + 2]];
    return [px(2, 2), px(W - 3, 2), px(2, H - 3), px(W - 3, H - 3)];
  };
  const near = (p: number[], q: number[], tol = 14) => p.every((v, i) => Math.abs(v - q[i]) <= tol);
  let audio: string;
  let bgStripe: Buffer;
  beforeAll(async () => {
    audio = await audioFile([{ kind: "vowel", vowel: "AA", seconds: 0.2 }], "wav");
    // 100×50 red image with a blue vertical stripe in the middle half.
    const raw = Buffer.alloc(100 * 50 * 3);
    for (let y = 0; y < 50; y++)
      for (let x = 0; x < 100; x++) {
        const blue = x >= 25 && x < 75;
        raw.set(blue ? [0, 0, 255] : [255, 0, 0], (y * 100 + x) * 3);
      }
    bgStripe = await sharp(raw, { raw: { width: 100, height: 50, channels: 3 } })
      .png()
      .toBuffer();
  });

  it("crop covers the whole canvas with the portrait", async () => {
    const r = await render(audio, { width: 192, height: 96, fit: "crop", backgroundColor: MAGENTA });
    for (const c of await corners(r.mp4Path, 192, 96)) expect(near(c, [255, 0, 255], 40)).toBe(false);
  });

  it("contain places the portrait inside, background colour around it", async () => {
    const r = await render(audio, { width: 192, height: 96, fit: "contain", backgroundColor: MAGENTA });
    for (const c of await corners(r.mp4Path, 192, 96)) expect(near(c, [255, 0, 255])).toBe(true);
    // The middle column shows the portrait.
    const [f] = await extractFramesRgb(r.mp4Path, 192, 96, [0]);
    const o = (48 * 192 + 96) * 3;
    expect(near([f[o], f[o + 1], f[o + 2]], [255, 0, 255], 40)).toBe(false);
  });

  it("background image: stretch fills, cover crops to the centre, contain leaves the colour around", async () => {
    const W = 96;
    const H = 192;
    const bg = { background: bgStripe };
    const stretch = await render(
      audio,
      { width: W, height: H, fit: "contain", backgroundColor: MAGENTA, backgroundFit: "stretch" },
      bg,
    );
    for (const c of await corners(stretch.mp4Path, W, H)) expect(near(c, [255, 0, 0], 30)).toBe(true);
    const cover = await render(
      audio,
      { width: W, height: H, fit: "contain", backgroundColor: MAGENTA, backgroundFit: "cover" },
      bg,
    );
    for (const c of await corners(cover.mp4Path, W, H)) expect(near(c, [0, 0, 255], 30)).toBe(true);
    const contain = await render(
      audio,
      { width: W, height: H, fit: "contain", backgroundColor: MAGENTA, backgroundFit: "contain" },
      bg,
    );
    for (const c of await corners(contain.mp4Path, W, H)) expect(near(c, [255, 0, 255])).toBe(true);
  });
});

describe("failures", () => {
  it("a file that is not audio fails with unsupported_media_type; an empty one with empty_media", async () => {
    const txt = join(dir, "speech.mp3");
    writeFileSync(txt, "definitely not audio\n".repeat(100));
    expect(await failureCode(render(txt, {}))).toBe("unsupported_media_type");
    const empty = join(dir, "empty.m4a");
    writeFileSync(empty, Buffer.alloc(0));
    expect(await failureCode(render(empty, {}))).toBe("empty_media");
  });

  it("stops promptly when aborted", async () => {
    const audio = await audioFile([{ kind: "vowel", vowel: "AA", seconds: 20 }], "wav");
    const ac = new AbortController();
    const t0 = performance.now();
    const p = render(
      audio,
      {},
      { signal: ac.signal, onStage: (s) => s === "rendering" && setTimeout(() => ac.abort(new Error("stop")), 100) },
    );
    await expect(p).rejects.toThrow("stop");
    expect(performance.now() - t0).toBeLessThan(8000);
  });
});
