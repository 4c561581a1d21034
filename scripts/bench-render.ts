/**
 * Render benchmark: a 60 s speech-like clip at 1024×1024 and 1920×1080.
 *
 *   npx tsx scripts/bench-render.ts [--seconds 60] [--sizes 1024x1024,1920x1080] [--portrait file.png --rig rig.json]
 *
 * For each size it measures, in the same run:
 *  - the encode floor: the same ffmpeg command (same x264/AAC settings, same audio) fed N identical
 *    frames of the still composed canvas — what encoding alone costs;
 *  - the full render (renderVideo): wall time, real-time factor (media seconds / wall seconds),
 *    ratio to the floor, peak RSS of node and of the ffmpeg child (VmHWM from /proc).
 * Without --portrait/--rig it uses the test portrait fixture through createAvatarAssets when present.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";
import { renderVideo } from "../container/src/video/render";
import { FrameEncoder } from "../container/src/video/encoder";
import { makeTimeline } from "../container/src/video/timeline";
import { composeCanvas } from "../container/src/video/compose";
import { rgbToRgba } from "../container/src/animate/warp";
import { rgbaToYuv420Rect, yuvLayout } from "../container/src/video/yuv";
import type { AvatarRig } from "../container/src/rig";
import { encodeAudio, speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
}

async function loadAvatar(): Promise<{ portraitPng: Buffer; rig: AvatarRig; label: string }> {
  const p = arg("portrait");
  const r = arg("rig");
  if (p && r) return { portraitPng: readFileSync(p), rig: JSON.parse(readFileSync(r, "utf8")), label: p };
  const dir = join(import.meta.dirname, "..", "test", "fixtures", "portraits");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort() : [];
  if (!files.length) throw new Error("no portrait: pass --portrait and --rig, or add test/fixtures/portraits/*");
  const file = arg("fixture") ?? files[0];
  const { createAvatarAssets } = await import("../container/src/avatar/preprocess");
  const assets = await createAvatarAssets(readFileSync(join(dir, file)));
  return { portraitPng: assets.portraitPng, rig: assets.rig, label: file };
}

async function floorRun(opts: {
  width: number;
  height: number;
  frames: number;
  audioPath: string;
  audioStart: number;
  durationSeconds: number;
  portraitPng: Buffer;
  rig: AvatarRig;
  out: string;
}): Promise<{ ms: number; ffmpegPeak: number }> {
  const { rgb } = await composeCanvas(opts.portraitPng, opts.rig, undefined, {
    width: opts.width,
    height: opts.height,
    fit: "crop",
    backgroundColor: "#000000",
    backgroundFit: "cover",
  });
  const L = yuvLayout(opts.width, opts.height);
  const frame = new Uint8Array(L.frameSize);
  rgbaToYuv420Rect(rgbToRgba(rgb, opts.width, opts.height).data, frame, L, { x0: 0, y0: 0, x1: opts.width, y1: opts.height });
  const t0 = performance.now();
  const enc = new FrameEncoder({
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
  let peak = 0;
  for (let i = 0; i < opts.frames; i++) {
    await enc.write(frame);
    if ((i & 31) === 0) peak = Math.max(peak, vmHwm(enc.child.pid));
  }
  peak = Math.max(peak, vmHwm(enc.child.pid));
  const r = await enc.finish();
  if (r.code !== 0) throw new Error(`floor ffmpeg failed: ${enc.stderrTail}`);
  return { ms: performance.now() - t0, ffmpegPeak: peak };
}

function vmHwm(pid?: number): number {
  if (!pid) return 0;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

async function main() {
  const seconds = Number(arg("seconds", "60"));
  const sizes = (arg("sizes", "1024x1024,1920x1080") ?? "").split(",").map((s) => s.split("x").map(Number) as [number, number]);
  const work = mkdtempSync(join(tmpdir(), "bench-render-"));
  try {
    const avatar = await loadAvatar();
    const audioPath = join(work, "speech.m4a");
    await encodeAudio(synthSpeech(speechLike(seconds, 3), 24_000), 24_000, audioPath, "m4a");
    console.log(`portrait ${avatar.label} (${avatar.rig.portrait.width}×${avatar.rig.portrait.height}), audio ${seconds} s speech-like, ${cpus().length} cores`);
    for (const [width, height] of sizes) {
      const tl = makeTimeline(seconds, 0, 0);
      const floor = await floorRun({
        width,
        height,
        frames: tl.frames,
        audioPath,
        audioStart: tl.speechStart,
        durationSeconds: tl.durationSeconds,
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
        out: join(work, `floor-${width}x${height}.mp4`),
      });
      const t0 = performance.now();
      const r = await renderVideo({
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
        audioPath,
        settings: { width, height, fit: "crop", backgroundColor: "#000000", backgroundFit: "cover", leadInSeconds: 0, leadOutSeconds: 0 },
        workDir: work,
      });
      const ms = performance.now() - t0;
      const rtf = r.durationSeconds / (ms / 1000);
      console.log(
        [
          `${width}×${height}: ${r.frames} frames (${r.durationSeconds.toFixed(2)} s)`,
          `  render ${(ms / 1000).toFixed(2)} s → real-time factor ${rtf.toFixed(2)}`,
          `  encode floor ${(floor.ms / 1000).toFixed(2)} s (RTF ${(r.durationSeconds / (floor.ms / 1000)).toFixed(2)}) → ratio ${(ms / floor.ms).toFixed(2)}× floor`,
          `  peak RSS node ${mb(r.memory.nodePeakRss)}, ffmpeg ${mb(r.memory.ffmpegPeakRss)} (floor ffmpeg ${mb(floor.ffmpegPeak)}), sum ${mb(r.memory.nodePeakRss + r.memory.ffmpegPeakRss)}`,
          `  re-rendered frames ${r.renderedFrames}/${r.frames}; timings ${JSON.stringify(r.timings)}`,
        ].join("\n"),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
