/**
 * The performance controls, measured on rendered videos (docs/performance.md, "Measured"):
 *
 *   npm run quality:performance -- [--out DIR] [--portraits phone,medium,teeth,glasses] [--only expressions,head,blinks]
 *                                  [--intensity 0.6] [--size 512] [--no-emotion] [--reuse] [--json FILE]
 *
 *  - expressions: per portrait, the same speech rendered at neutral and at each expression; Human's FaceMesh
 *    reads the mouth corners against the lips' middle, the brows over the eyes, the inner brows against the
 *    outer ones and the eye opening on every 3rd frame (medians; blinks left out), and its emotion model the
 *    probabilities on every 6th. Printed: each expression's change against neutral, and whether it clears
 *    its margin (MARGINS, the goals in the docs).
 *  - timeline: the teeth portrait smiling, then serious from 2 s of the audio on: a strip of face crops across
 *    the change (`timeline-strip.jpg`), every 0.1 s.
 *  - head: the first portrait (phone) at headMotion 0, 1, 2, 3: the yaw and pitch SD the motion model drew,
 *    how much of it the face model reads back (against the still head's render: quality/head-reading.ts),
 *    and its plain readings beside them (raw, and above what it reads on the still head).
 *  - blinks: 60 s at 10 and 30 blinks a minute and at the default: the blinks per minute read from the eyes.
 * Renders use the renderer's own code (container/src/video), seed 1234, speech-like audio with pauses. Per
 * portrait a sheet of face crops from the videos is written (`<portrait>-sheet.jpg`: neutral and each
 * expression, at rest and mid-word) to look at.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import sharp, { type OverlayOptions } from "sharp";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  DRAWN_EXPRESSIONS,
  type DrawnExpression,
  PERFORMANCE_DEFAULTS,
  type Performance,
} from "@avatar-video/contract";
import { OPENING_SECONDS, renderVideo } from "../container/src/video/public";
import { encodeAudio, speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";
import { type Emotions, type FaceReading, readEmotion, readFace } from "./quality/face-reading";
import { motionDrawn, motionFollowed, poseSd, type YawPitch } from "./quality/head-reading";
import { sampleAvatar, samplePortraits } from "./quality/sample-portraits";
import { videoFrame, videoFrames, videoInfo } from "./quality/video-frames";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "quality-out/performance" },
    portraits: { type: "string", default: "phone,medium,teeth,glasses" },
    only: { type: "string", default: "expressions,timeline,head,blinks" },
    intensity: { type: "string", default: "0.6" },
    size: { type: "string", default: "512" },
    "no-emotion": { type: "boolean", default: false },
    reuse: { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const OUT = resolve(values.out!);
const INPUTS = join(OUT, "inputs");
mkdirSync(INPUTS, { recursive: true });
const SIZE = Number(values.size);
const INTENSITY = Number(values.intensity);
const parts = new Set(values.only!.split(","));
const SEED = 1234;

/** The readings, and `innerEnds`: the inner brow ends over the eye line (the brow middle's height plus half the inner ends' rise over the outer ones). */
type Figures = Pick<FaceReading, "corners" | "brows" | "innerBrows" | "eyes"> & { innerEnds: number };
/**
 * Goals per expression at intensity 0.6 against neutral (docs/performance.md): corners × mouth width, brows and
 * eyes × the eye corners' distance; `smiling`: only on a photo that smiles (serious levels its corners).
 */
const MARGINS: Record<DrawnExpression, Array<{ key: keyof Figures; min?: number; max?: number; smiling?: true }>> = {
  happy: [
    { key: "corners", min: 0.02 },
    { key: "eyes", max: -0.002 },
  ],
  serious: [
    { key: "corners", max: -0.01, smiling: true },
    { key: "innerEnds", max: -0.008 },
  ],
  surprised: [
    { key: "brows", min: 0.03 },
    { key: "eyes", min: 0.003 },
  ],
  sad: [
    { key: "corners", max: -0.015 },
    { key: "innerBrows", min: 0.015 },
  ],
};
/** The emotion whose probability the expression should raise (serious: the photo's smile should fade). */
const EMOTION_OF: Record<DrawnExpression, { label: keyof Emotions; sign: 1 | -1 }> = {
  happy: { label: "happy", sign: 1 },
  serious: { label: "happy", sign: -1 },
  surprised: { label: "surprise", sign: 1 },
  sad: { label: "sad", sign: 1 },
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};
const pct = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}%`;

async function speech(seconds: number): Promise<string> {
  const path = join(INPUTS, `speech-${seconds}s.wav`);
  await encodeAudio(synthSpeech(speechLike(seconds, 5), 24_000), 24_000, path, "wav");
  return path;
}

async function render(
  name: string,
  avatar: { png: Buffer; rig: unknown },
  audio: string,
  size: number,
  p?: Performance,
) {
  const workDir = join(OUT, name);
  // --reuse: a video rendered by an earlier run of the same tree is read again, not rendered again.
  if (values.reuse && existsSync(join(workDir, "video.mp4"))) return join(workDir, "video.mp4");
  mkdirSync(workDir, { recursive: true });
  const r = await renderVideo({
    portraitPng: avatar.png,
    rig: avatar.rig as never,
    audioPath: audio,
    settings: {
      width: size,
      height: size,
      fit: "crop",
      backgroundColor: "#000000",
      backgroundFit: "cover",
      leadInSeconds: 0,
      leadOutSeconds: 0,
      ...(p ? { performance: p } : {}),
    },
    workDir,
    seed: SEED,
  });
  return r.mp4Path as string;
}

/** Face readings of every `every`-th frame (undefined where no face was found). */
async function readVideo(path: string, every: number): Promise<Array<FaceReading | undefined>> {
  const { width, height } = await videoInfo(path);
  const out: Array<FaceReading | undefined> = [];
  for await (const rgb of videoFrames(path, width, height, every)) out.push(await readFace(rgb, width, height));
  return out;
}

async function readEmotions(path: string, every: number): Promise<Emotions | undefined> {
  const { width, height } = await videoInfo(path);
  const all: Emotions[] = [];
  for await (const rgb of videoFrames(path, width, height, every)) {
    const e = await readEmotion(rgb, width, height);
    if (e) all.push(e);
  }
  if (!all.length) return undefined;
  return Object.fromEntries(
    Object.keys(all[0]).map((k) => [k, all.reduce((a, e) => a + e[k as keyof Emotions], 0) / all.length]),
  ) as Emotions;
}

/** Medians of the landmark figures over the frames read; eye openings of blinking frames left out. */
function figures(rs: Array<FaceReading | undefined>): Figures {
  const ok = rs.filter((r): r is FaceReading => r !== undefined);
  const open = median(ok.map((r) => r.eyes));
  const brows = median(ok.map((r) => r.brows));
  const innerBrows = median(ok.map((r) => r.innerBrows));
  return {
    corners: median(ok.map((r) => r.corners)),
    brows,
    innerBrows,
    innerEnds: brows + innerBrows / 2,
    eyes: median(ok.filter((r) => r.eyes > 0.6 * open).map((r) => r.eyes)),
  };
}

const report: Record<string, unknown> = {};
const images = await samplePortraits(INPUTS);

if (parts.has("expressions")) {
  const audio = await speech(8);
  const rows: string[] = [];
  let failures = 0;
  for (const name of values.portraits!.split(",")) {
    const avatar = await sampleAvatar(INPUTS, name, images[name]);
    const neutralPath = await render(`${name}-neutral`, avatar, audio, SIZE);
    const neutralReadings = await readVideo(neutralPath, 3);
    const neutral = figures(neutralReadings);
    const videos = [neutralPath];
    const neutralEmotion = values["no-emotion"] ? undefined : await readEmotions(neutralPath, 6);
    // A photo that smiles: its corners read above the lips' middle by more than 1 % of the mouth width.
    const smiles = neutral.corners > 0.01;
    report[name] = { neutral, neutralEmotion, smiles };
    for (const expression of DRAWN_EXPRESSIONS) {
      const p = { ...PERFORMANCE_DEFAULTS, timeline: [], expression, intensity: INTENSITY };
      const path = await render(`${name}-${expression}`, avatar, audio, SIZE, p);
      videos.push(path);
      const f = figures(await readVideo(path, 3));
      const d = {
        corners: f.corners - neutral.corners,
        brows: f.brows - neutral.brows,
        innerBrows: f.innerBrows - neutral.innerBrows,
        innerEnds: f.innerEnds - neutral.innerEnds,
        eyes: f.eyes - neutral.eyes,
      };
      const verdicts = MARGINS[expression]
        .filter((m) => !m.smiling || smiles)
        .map((m) => {
          const v = d[m.key];
          const ok = (m.min === undefined || v >= m.min) && (m.max === undefined || v <= m.max);
          if (!ok) failures++;
          return `${m.key} ${pct(v)} ${ok ? "ok" : `MISSES ${m.min !== undefined ? `≥ ${pct(m.min)}` : `≤ ${pct(m.max!)}`}`}`;
        });
      let emotion = "";
      if (neutralEmotion) {
        const e = await readEmotions(path, 6);
        const { label, sign } = EMOTION_OF[expression];
        const shift = e ? (e[label] - neutralEmotion[label]) * sign : NaN;
        emotion = ` · emotion ${sign < 0 ? "−" : ""}${label} ${pct(shift)}${shift > 0 ? "" : " (no shift)"}`;
        report[`${name}-${expression}-emotion`] = e;
      }
      report[`${name}-${expression}`] = d;
      rows.push(
        `${name.padEnd(8)} ${expression.padEnd(10)} corners ${pct(d.corners)}  brows ${pct(d.brows)}  inner ${pct(d.innerBrows)}  eyes ${pct(d.eyes)}  | ${verdicts.join(", ")}${emotion}`,
      );
      console.log(rows[rows.length - 1]);
    }
    await sheet(name, videos, neutralReadings);
  }
  console.log(`\nexpressions at intensity ${INTENSITY} against neutral: ${failures} margin(s) missed`);
}

if (parts.has("timeline")) {
  const audio = await speech(4);
  const avatar = await sampleAvatar(INPUTS, "teeth", images.teeth);
  const change = 2;
  const p: Performance = {
    ...PERFORMANCE_DEFAULTS,
    expression: "happy",
    intensity: INTENSITY,
    timeline: [{ atSeconds: change, expression: "serious", intensity: INTENSITY }],
  };
  const path = await render("timeline", avatar, audio, SIZE, p);
  const { width, height, fps } = await videoInfo(path);
  const [first] = await readVideo(path, 1 << 20); // frame 0: where the face is
  const times = [-0.1, 0, 0.1, 0.2, 0.3, 0.4];
  const frames = times.map((dt) => Math.round((OPENING_SECONDS + change + dt) * fps));
  const crops = await Promise.all(frames.map(async (f) => ({ rgb: await videoFrame(path, width, height, f) })));
  await strip(
    crops.map((c) => c.rgb),
    width,
    height,
    faceCrop(first!.box, width, height),
    join(OUT, "timeline-strip.jpg"),
  );
  console.log(
    `${join(OUT, "timeline-strip.jpg")}: happy → serious at ${change} s; ${times.map((t) => `${t >= 0 ? "+" : ""}${t}`).join(", ")} s`,
  );
}

if (parts.has("head")) {
  const audio = await speech(12);
  // The first of --portraits (phone by default).
  const face = values.portraits!.split(",")[0];
  const avatar = await sampleAvatar(INPUTS, face, images[face]);
  const reads: Record<number, Array<YawPitch | undefined>> = {};
  const drawn: Record<number, YawPitch> = {};
  const above: Record<number, YawPitch> = {};
  const followed: Record<number, YawPitch> = {};
  const x = (a: YawPitch, b: YawPitch) => `${(a.yaw / b.yaw).toFixed(2)}× / ${(a.pitch / b.pitch).toFixed(2)}×`;
  const deg = (a: YawPitch) => `${a.yaw.toFixed(2)} / ${a.pitch.toFixed(2)}°`;
  for (const headMotion of [0, 1, 2, 3]) {
    const p = { ...PERFORMANCE_DEFAULTS, timeline: [], headMotion };
    const path = await render(`head-${face}-${headMotion}`, avatar, audio, SIZE, headMotion === 1 ? undefined : p);
    reads[headMotion] = (await readVideo(path, 2)).map((r) => r && { yaw: r.yaw, pitch: r.pitch });
    const angles = await motionDrawn(audio, SEED, p, 2);
    drawn[headMotion] = poseSd(angles);
    // The reader's own SDs on this video, and above what it reads on the still head (in quadrature).
    const raw = poseSd(reads[headMotion]);
    const floor = poseSd(reads[0]);
    const over = (k: keyof YawPitch) => Math.sqrt(Math.max(0, raw[k] ** 2 - floor[k] ** 2));
    if (!headMotion) {
      const peak = Math.max(...angles.map((a) => Math.max(Math.abs(a.yaw), Math.abs(a.pitch))));
      console.log(
        `headMotion 0: drawn max |yaw|, |pitch| ${peak}°; read ${deg(raw)} (the reader's floor on a still head)`,
      );
      continue;
    }
    followed[headMotion] = motionFollowed(reads[headMotion], reads[0], angles);
    above[headMotion] = { yaw: over("yaw"), pitch: over("pitch") };
    report[`head-${headMotion}`] = {
      drawn: drawn[headMotion],
      followed: followed[headMotion],
      raw,
      above: above[headMotion],
    };
    console.log(
      `headMotion ${headMotion}: drawn yaw / pitch SD ${deg(drawn[headMotion])} (${x(drawn[headMotion], drawn[1])} of 1); ` +
        `followed ${deg(followed[headMotion])} (${x(followed[headMotion], followed[1])}); ` +
        `raw ${deg(raw)}, above the floor ${deg(above[headMotion])} (${x(above[headMotion], above[1])})`,
    );
  }
  // A ratio means something where the reader follows the drawn motion at 1 (reads back at least half of it).
  const verdict = (k: keyof YawPitch) =>
    followed[1][k] < 0.5 * drawn[1][k]
      ? `${k}: the face model does not follow it here`
      : `${k} ${(followed[2][k] / followed[1][k]).toFixed(2)}× ${followed[2][k] >= 2.5 * followed[1][k] ? "ok" : "MISSES ≥ 2.5×"}`;
  console.log(`headMotion 2 against 1, read back: ${verdict("yaw")}, ${verdict("pitch")}`);
}

if (parts.has("blinks")) {
  const audio = await speech(60);
  const avatar = await sampleAvatar(INPUTS, "phone", images.phone);
  for (const rate of [10, PERFORMANCE_DEFAULTS.blinksPerMinute, 30]) {
    const p = { ...PERFORMANCE_DEFAULTS, timeline: [], blinksPerMinute: rate };
    const isDefault = rate === PERFORMANCE_DEFAULTS.blinksPerMinute;
    const path = await render(`blinks-${rate}`, avatar, audio, 320, isDefault ? undefined : p);
    const { fps } = await videoInfo(path);
    const eyes = (await readVideo(path, 2)).map((r) => r?.eyes ?? NaN);
    const blinks = countBlinks(eyes);
    const minutes = (eyes.length * 2) / fps / 60;
    const perMinute = blinks / minutes;
    const off = perMinute / rate - 1;
    console.log(
      `blinksPerMinute ${rate}${isDefault ? " (default)" : ""}: ${perMinute.toFixed(1)} read over ${(minutes * 60).toFixed(0)} s (${pct(off)})${isDefault || Math.abs(off) <= 0.2 ? "" : " MISSES ±20 %"}`,
    );
    report[`blinks-${rate}`] = perMinute;
  }
}

/**
 * Face crops from each video (neutral first) at a moment of rest and one mid-word (the neutral video's
 * narrowest and widest mouth after the first 1.5 s), two rows, written as `<portrait>-sheet.jpg`.
 */
async function sheet(name: string, videos: string[], readings: Array<FaceReading | undefined>): Promise<void> {
  // Frames after the first 1.5 s with the eyes open (no blink in the picture).
  const open = figures(readings).eyes;
  const read = readings
    .map((r, k) => ({ r, frame: k * 3 }))
    .filter((x) => x.r && x.frame > 37 && x.r.eyes > 0.85 * open);
  const byGap = read.sort((a, b) => a.r!.gap - b.r!.gap);
  const frames = [byGap[0], byGap[byGap.length - 1]];
  const { width, height } = await videoInfo(videos[0]);
  const crop = faceCrop(frames[0].r!.box, width, height);
  const rows: Buffer[] = [];
  for (const { frame } of frames) {
    const rgbs = await Promise.all(videos.map((v) => videoFrame(v, width, height, frame)));
    const file = join(OUT, `${name}-row-${frame}.png`);
    await strip(rgbs, width, height, crop, file, "png");
    rows.push(await sharp(file).toBuffer());
  }
  const file = join(OUT, `${name}-sheet.jpg`);
  const w = videos.length * (crop.width + 4) - 4;
  await sharp({ create: { width: w, height: 2 * crop.height + 4, channels: 3, background: "#fff" } })
    .composite(rows.map((input, k) => ({ input, left: 0, top: k * (crop.height + 4) })))
    .jpeg({ quality: 86 })
    .toFile(file);
  console.log(
    `${file}: neutral, ${DRAWN_EXPRESSIONS.join(", ")}; frames ${frames.map((f) => f.frame).join(" (rest), ")} (mid-word)`,
  );
}

type Crop = { left: number; top: number; width: number; height: number };

/** The face's box with a margin, inside the frame. */
function faceCrop(box: FaceReading["box"], width: number, height: number): Crop {
  const pad = 0.15 * box.height;
  const left = Math.max(0, Math.round(box.x - pad));
  const top = Math.max(0, Math.round(box.y - pad));
  return {
    left,
    top,
    width: Math.min(Math.round(box.width + 2 * pad), width - left),
    height: Math.min(Math.round(box.height + 2 * pad), height - top),
  };
}

/** The same crop of several RGB frames side by side. */
async function strip(rgbs: Buffer[], width: number, height: number, crop: Crop, file: string, format = "jpeg") {
  const tiles: OverlayOptions[] = await Promise.all(
    rgbs.map(async (rgb, k) => ({
      input: await sharp(rgb, { raw: { width, height, channels: 3 } })
        .extract(crop)
        .png()
        .toBuffer(),
      left: k * (crop.width + 4),
      top: 0,
    })),
  );
  const out = sharp({
    create: { width: rgbs.length * (crop.width + 4) - 4, height: crop.height, channels: 3, background: "#fff" },
  }).composite(tiles);
  await (format === "png" ? out.png() : out.jpeg({ quality: 86 })).toFile(file);
}

/** Blinks: runs where the eyes' opening falls under half of its median (its own rhythm between blinks). */
function countBlinks(eyes: number[]): number {
  const open = median(eyes.filter(Number.isFinite));
  let n = 0;
  let closed = false;
  for (const e of eyes) {
    const shut = Number.isFinite(e) && e < 0.5 * open;
    if (shut && !closed) n++;
    closed = shut;
  }
  return n;
}

if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2));
