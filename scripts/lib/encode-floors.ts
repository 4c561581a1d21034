/**
 * The encode floors bench-render compares a render with, both with the renderer's x264/AAC settings and
 * the same audio: (a) the renderer's own ffmpeg command fed N identical raw frames of the still composed
 * canvas (no decoding or colour conversion at all), (b) ffmpeg looping a PNG of that canvas (-loop 1).
 */
import { join } from "node:path";
import sharp from "sharp";
import type { AvatarRig } from "@avatar-video/contract";
import { composeCanvas, rgbToYuv420 } from "../../container/src/paint/public";
import { encoderArgs, FrameEncoder, ffmpegPath, run } from "../../container/src/media/public";
import { readPeakRss } from "../../container/src/video/public";

/** What both encode floors need: the canvas, the frame count, the audio placement and the output path. */
export interface FloorOptions {
  width: number;
  height: number;
  frames: number;
  audioPath: string;
  audioStart: number;
  durationSeconds: number;
  portraitPng: Buffer;
  rig: AvatarRig;
  out: string;
}

/** The still canvas both floors encode: the portrait composed exactly as the render's first frame. */
async function stillCanvas(opts: FloorOptions) {
  const { rgb } = await composeCanvas(opts.portraitPng, opts.rig, undefined, {
    width: opts.width,
    height: opts.height,
    fit: "crop",
    backgroundColor: "#000000",
    backgroundFit: "cover",
  });
  return rgb;
}

/** The renderer's encoder settings for a floor run (same codec, audio placement and duration). */
const floorEncoding = (opts: FloorOptions) => ({
  width: opts.width,
  height: opts.height,
  fps: 25,
  frames: opts.frames,
  audioPath: opts.audioPath,
  channels: 1,
  audioStart: opts.audioStart,
  durationSeconds: opts.durationSeconds,
  outPath: opts.out,
});

/** Floor (a): identical raw frames piped into the renderer's encoder. */
export async function floorRun(opts: FloorOptions): Promise<{ ms: number; ffmpegPeak: number }> {
  const rgb = await stillCanvas(opts);
  const frame = rgbToYuv420(rgb, opts.width, opts.height);
  const t0 = performance.now();
  const enc = new FrameEncoder(floorEncoding(opts));
  let peak = 0;
  for (let i = 0; i < opts.frames; i++) {
    await enc.write(frame);
    if ((i & 31) === 0) peak = Math.max(peak, readPeakRss(enc.child.pid));
  }
  peak = Math.max(peak, readPeakRss(enc.child.pid));
  const r = await enc.finish();
  if (r.code !== 0) throw new Error(`floor ffmpeg failed: ${enc.stderrTail}`);
  return { ms: performance.now() - t0, ffmpegPeak: peak };
}

/**
 * Floor (b), the "still image" floor as one would run it by hand: ffmpeg loops a PNG of the composed
 * canvas (-loop 1), with the same codec settings and audio. Decodes and converts the PNG every frame.
 */
export async function pngLoopFloor(opts: FloorOptions & { work: string }): Promise<number> {
  const rgb = await stillCanvas(opts);
  const png = join(opts.work, `still-${opts.width}x${opts.height}.png`);
  await sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), {
    raw: { width: opts.width, height: opts.height, channels: 3 },
  })
    .png()
    .toFile(png);
  const args = encoderArgs(floorEncoding(opts));
  // Replace the raw pipe input by the looped PNG.
  const i = args.indexOf("pipe:0");
  const start = args.indexOf("-f");
  const looped = [...args.slice(0, start), "-loop", "1", "-framerate", "25", "-i", png, ...args.slice(i + 1)];
  const t0 = performance.now();
  const r = await run(ffmpegPath(), looped);
  if (r.code !== 0) throw new Error(`png floor failed: ${r.stderr}`);
  return performance.now() - t0;
}
