/**
 * Live = rendered (docs/motion.md, "The same mouth as the video"): fixed poses drawn by the live client
 * (packages/motion-client's AvatarCanvas, WebGL in Chromium) and painted by the renderer (FramePainter, at
 * the portrait's own size, as the client draws it), compared in the mouth box in the video's pixel format
 * (yuv420p), against what the video codec itself changes there: the renderer's H.264 settings on a clip
 * of the same poses.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { type AvatarRig, DRAWN_EXPRESSIONS } from "@avatar-video/contract";
import {
  buildFaceModel,
  deform,
  type FaceModel,
  type FacePose,
  NEUTRAL_POSE,
  photoMouthColors,
  yuv420FromPixels,
} from "@avatar-video/face-rig";
import { VIDEO_CODEC_ARGS } from "../../container/src/media/public";
import { FramePainter, rgbToYuv420, yuv420ToRgb } from "../../container/src/paint/public";
import { MOUTH_POSES } from "./paint-pose";

/** The poses compared: the viseme targets at full loudness (paint-pose.ts). */
export const LIVE_POSES = MOUTH_POSES;

const NONE = { happy: 0, serious: 0, surprised: 0, sad: 0 };
/** A turned, nodding, tilted head (the live protocol's head: yaw, pitch and roll; no translation). */
const TURNED = { yaw: 2.5, pitch: -2, roll: 1.5 };

/**
 * The poses compared per expression (docs/performance.md): each drawn expression at the default intensity on
 * a turned head, at rest and mid-word (an open vowel, with an emphasis brow raise); and the photo's own face
 * (neutral) the same way.
 */
export const EXPRESSION_POSES: Array<[string, Partial<FacePose>]> = (
  ["neutral", ...DRAWN_EXPRESSIONS] as const
).flatMap((name) => {
  const expression = name === "neutral" ? {} : { expression: { ...NONE, [name]: 0.6 } };
  return [
    [`${name} at rest`, { ...TURNED, ...expression }],
    [`${name} mid-word`, { ...TURNED, ...expression, open: 0.6, spread: 0.2, relax: 1, brow: 0.5 }],
  ] satisfies Array<[string, Partial<FacePose>]>;
});

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A yuv420p image (even width and height). */
export interface Yuv {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The live protocol's frame for a pose (what the service would send: one blink for both eyes, no translation). */
export function motionMessage(p: FacePose) {
  return {
    type: "motion" as const,
    frame: 0,
    t: 0,
    mouthOpen: p.open,
    mouthWide: p.spread,
    mouthRound: p.round,
    lipsClosed: p.press,
    lipTuck: p.tuck,
    smileRelax: p.relax,
    blink: p.blinkL,
    head: { yaw: p.yaw, pitch: p.pitch, roll: p.roll },
    ...(p.brow ? { brow: p.brow } : {}),
    ...(p.expression ? { expression: p.expression } : {}),
  };
}

/** The mouth box of AvatarCanvas.mouthBox (lips' box, padded for the jaw), even-aligned. */
export function mouthBox(m: FaceModel): Box {
  const { ox, oy, halfWidth: hw } = m.mouth;
  const x = Math.round(ox - hw * 1.4) & ~1;
  const y = Math.round(oy - hw * 0.8) & ~1;
  return { x, y, width: Math.round(hw * 2.8) & ~1, height: Math.round(hw * 2) & ~1 };
}

/** The box of the model's points `ids`, padded by `pad` × the eye distance, even-aligned, inside w × h. */
function pointsBox(m: FaceModel, ids: Iterable<number>, pad: number, w: number, h: number): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const i of ids) {
    const x = m.base[i * 2]!;
    const y = m.base[i * 2 + 1]!;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  const p = pad * m.interocular;
  const x = Math.max(0, Math.round(x0 - p)) & ~1;
  const y = Math.max(0, Math.round(y0 - p)) & ~1;
  return {
    x,
    y,
    width: (Math.min(w, Math.round(x1 + p)) - x) & ~1,
    height: (Math.min(h, Math.round(y1 + p)) - y) & ~1,
  };
}

/**
 * Where an expression shows, each region compared on its own (a whole-face box would dilute a smile's few
 * moved pixels below the codec's error): the brows and eyes (FaceMesh's brow and eye-corner, lid-middle points),
 * and the mouth (mouthBox, which includes the corners and cheeks by them).
 */
export function expressionBoxes(m: FaceModel, w: number, h: number): Array<[string, Box]> {
  const browsEyes = [...m.brows, 33, 133, 159, 145, 263, 362, 386, 374];
  return [
    ["brows and eyes", pointsBox(m, browsEyes, 0.12, w, h)],
    ["mouth", mouthBox(m)],
  ];
}

/** The rig's face model on the portrait at its own size (W × H of it), as the live client places it. */
export const portraitModel = (rig: AvatarRig, W: number, H: number): FaceModel =>
  buildFaceModel(rig, { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0, clip: { x0: 0, y0: 0, x1: W, y1: H } });

/** The renderer's frames of `poses` on the portrait at its own size (its even part), as yuv420p. */
export async function renderPoses(
  portraitPng: Buffer,
  rig: AvatarRig,
  poses: FacePose[],
): Promise<{ model: FaceModel; frames: Yuv[] }> {
  const { data, info } = await sharp(portraitPng).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const W = info.width & ~1;
  const H = info.height & ~1;
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) rgb.set(data.subarray(y * info.width * 3, (y * info.width + W) * 3), y * W * 3);
  const model = portraitModel(rig, W, H);
  const pixels = { data: rgb, width: W, height: H, channels: 3 as const };
  const painter = await FramePainter.create(model, photoMouthColors(pixels, model), rgbToYuv420(rgb, W, H), W, H, {
    threads: 1,
    poolSize: 1,
  });
  const frames = poses.map((pose) => {
    painter.paint(deform(model, pose, new Float32Array(model.count * 2)), pose, 0);
    return { data: painter.pool[0]!.slice(), width: W, height: H };
  });
  painter.close();
  return { model, frames };
}

/**
 * In a page that can import the motion client from `moduleUrl`: load the Avatar from `rigUrl` on a fresh
 * canvas, draw each motion frame and return the canvas as RGBA (width, height, base64 pixels).
 */
export async function drawLive(
  page: Page,
  moduleUrl: string,
  rigUrl: string,
  frames: ReturnType<typeof motionMessage>[],
): Promise<Array<{ width: number; height: number; rgba: Buffer }>> {
  const shots = await page.evaluate(
    async ([moduleUrl, rigUrl, frames]) => {
      // (A literal import() here would be rewritten by the test runner's module transform.)
      const load = new Function("u", "return import(u)") as (u: string) => Promise<{
        AvatarCanvas: { load(c: HTMLCanvasElement, rigUrl: string): Promise<{ draw(f: unknown): void }> };
      }>;
      const { AvatarCanvas } = await load(moduleUrl);
      const canvas = document.createElement("canvas");
      const avatar = await AvatarCanvas.load(canvas, rigUrl);
      const out: Array<{ width: number; height: number; b64: string }> = [];
      for (const f of frames) {
        avatar.draw(f);
        const c = document.createElement("canvas");
        c.width = canvas.width;
        c.height = canvas.height;
        const ctx = c.getContext("2d")!;
        ctx.drawImage(canvas, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let s = "";
        for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode(...d.subarray(i, i + 0x8000));
        out.push({ width: c.width, height: c.height, b64: btoa(s) });
      }
      return out;
    },
    [moduleUrl, rigUrl, frames] as const,
  );
  return shots.map((s) => ({ width: s.width, height: s.height, rgba: Buffer.from(s.b64, "base64") }));
}

/** The live canvas (RGBA) inside `box`, in the video's pixel format (the renderer's RGB → yuv420p). */
export function liveYuv(shot: { width: number; rgba: Buffer }, box: Box): Yuv {
  const crop = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const o = ((box.y + y) * shot.width + box.x) * 4;
    crop.set(shot.rgba.subarray(o, o + box.width * 4), y * box.width * 4);
  }
  const pixels = { data: crop, width: box.width, height: box.height, channels: 4 as const };
  return { data: yuv420FromPixels(pixels), width: box.width, height: box.height };
}

/** The live canvas (RGBA) inside `box` as RGB24, as the page shows it (for pictures). */
export function canvasRgb(shot: { width: number; rgba: Buffer }, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 3);
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++) {
      const o = ((box.y + y) * shot.width + box.x + x) * 4;
      out.set(shot.rgba.subarray(o, o + 3), (y * box.width + x) * 3);
    }
  return out;
}

/** `box` of a yuv420p frame as its own yuv420p image (box even-aligned). */
export function cropYuv(f: Yuv, box: Box): Yuv {
  const { width: w, height: h } = box;
  const out = new Uint8Array(w * h * 1.5);
  for (let y = 0; y < h; y++)
    out.set(f.data.subarray((box.y + y) * f.width + box.x, (box.y + y) * f.width + box.x + w), y * w);
  const cw = f.width >> 1;
  const fy = f.width * f.height;
  for (const [src, dst] of [
    [fy, w * h],
    [fy + cw * (f.height >> 1), w * h * 1.25],
  ])
    for (let y = 0; y < h / 2; y++) {
      const o = src + ((box.y >> 1) + y) * cw + (box.x >> 1);
      out.set(f.data.subarray(o, o + w / 2), dst + (y * w) / 2);
    }
  return { data: out, width: w, height: h };
}

export interface Difference {
  /** Mean absolute difference of luma and of both chroma planes (levels). */
  madY: number;
  madC: number;
  /** PSNR (dB) over the three planes, weighted by their sample counts (as ffmpeg's "average"). */
  psnr: number;
  /** Largest difference of any sample (levels). */
  max: number;
}

/** How two yuv420p images of the same size differ. */
export function difference(a: Yuv, b: Yuv): Difference {
  const ny = a.width * a.height;
  let sy = 0;
  let sc = 0;
  let se = 0;
  let max = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = a.data[i]! - b.data[i]!;
    max = Math.max(max, Math.abs(d));
    if (i < ny) sy += Math.abs(d);
    else sc += Math.abs(d);
    se += d * d;
  }
  const mse = se / a.data.length;
  return {
    madY: sy / ny,
    madC: sc / (a.data.length - ny),
    psnr: mse > 0 ? 10 * Math.log10((255 * 255) / mse) : 99,
    max,
  };
}

/**
 * What the renderer's H.264 encoding (its own codec settings, 25 fps) changes in `box`: a clip that holds each
 * frame of `frames` for `hold` frames with `ramp` crossfaded frames between (a mouth that moves, as in a
 * video), encoded, decoded and compared with the lossless frames at the held frames. One figure per frame.
 */
export function codecError(frames: Yuv[], box: Box, hold = 6, ramp = 3): Difference[] {
  const { width: W, height: H } = frames[0]!;
  const seq: Uint8Array[] = [];
  const at: number[] = [];
  frames.forEach((f, k) => {
    if (k > 0) {
      const prev = frames[k - 1]!.data;
      for (let r = 1; r <= ramp; r++) {
        const t = r / (ramp + 1);
        seq.push(prev.map((v, i) => Math.round(v + (f.data[i]! - v) * t)));
      }
    }
    at.push(seq.length + (hold >> 1));
    for (let h = 0; h < hold; h++) seq.push(f.data);
  });
  const dir = mkdtempSync(join(tmpdir(), "live-compare-"));
  try {
    writeFileSync(join(dir, "in.yuv"), Buffer.concat(seq));
    const raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${W}x${H}`, "-r", "25"];
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      ...raw,
      "-i",
      join(dir, "in.yuv"),
      ...VIDEO_CODEC_ARGS,
      join(dir, "out.mp4"),
    ]);
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-i",
      join(dir, "out.mp4"),
      "-f",
      "rawvideo",
      "-pix_fmt",
      "yuv420p",
      join(dir, "out.yuv"),
    ]);
    const dec = readFileSync(join(dir, "out.yuv"));
    const size = W * H * 1.5;
    return at.map((i, k) =>
      difference(
        cropYuv(frames[k]!, box),
        cropYuv({ data: dec.subarray(i * size, (i + 1) * size), width: W, height: H }, box),
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Full poses of LIVE_POSES (or of `poses`). */
export const livePoses = (poses = LIVE_POSES): FacePose[] => poses.map(([, p]) => ({ ...NEUTRAL_POSE, ...p }));

/** A yuv420p image as RGB24 (for pictures). */
export const yuvRgb = (f: Yuv) => yuv420ToRgb(f.data, f.width, f.height);

/** Rows of tiles (RGB24, all `w` × `h`), each scaled 2× (nearest neighbour), 4 px apart, as a PNG. */
export async function tileSheet(rows: Uint8Array[][], w: number, h: number, out: string): Promise<void> {
  const K = 2;
  const tw = w * K + 4;
  const th = h * K + 4;
  const composites = await Promise.all(
    rows.flatMap((row, r) =>
      row.map(async (rgb, c) => ({
        input: await sharp(Buffer.from(rgb), { raw: { width: w, height: h, channels: 3 } })
          .resize(w * K, h * K, { kernel: "nearest" })
          .png()
          .toBuffer(),
        left: c * tw,
        top: r * th,
      })),
    ),
  );
  const width = Math.max(...rows.map((r) => r.length)) * tw - 4;
  await sharp({ create: { width, height: rows.length * th - 4, channels: 3, background: "#fff" } })
    .composite(composites)
    .png()
    .toFile(out);
}
