/**
 * Comparing two renders of one video, frame by frame (split renders against the single render:
 * segment-join.test.ts, test/e2e/segments.test.ts): the MD5 of every decoded frame or copied audio packet,
 * the streams' frame counts and the duration, the PSNR of every frame, and 2× crops either side of a seam.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ffmpegPath, ffprobePath, run } from "../../../container/src/media/public";

async function ffmpeg(args: string[]): Promise<string> {
  const r = await run(ffmpegPath(), ["-v", "error", ...args]);
  if (r.code !== 0) throw new Error(`ffmpeg ${args.join(" ")}: ${r.stderr.slice(-500)}`);
  return r.stdout.toString("utf8");
}

/** ffmpeg's MD5 of every decoded frame (or audio packet, copied) of one stream. */
export async function streamMd5s(path: string, stream: "v" | "a"): Promise<string[]> {
  const codec = stream === "a" ? ["-c", "copy"] : [];
  const out = await ffmpeg(["-i", path, "-map", `0:${stream}`, ...codec, "-f", "framemd5", "-"]);
  return out
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(",").at(-1)?.trim() ?? "");
}

export interface StreamInfo {
  format: { duration: string };
  streams: { codec_type: string; nb_frames: string; start_time: string }[];
}

export async function streamInfo(path: string): Promise<StreamInfo> {
  const args = ["-v", "error", "-show_entries", "format=duration:stream=codec_type,nb_frames,start_time"];
  const r = await run(ffprobePath(), [...args, "-of", "json", path]);
  return JSON.parse(r.stdout.toString("utf8")) as StreamInfo;
}

/** Per-frame PSNR (dB, luma and chroma; Infinity for identical frames) of b against a. */
export async function framePsnrs(a: string, b: string): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), "psnr-"));
  try {
    const stats = join(dir, "psnr.txt");
    await ffmpeg(["-i", a, "-i", b, "-lavfi", `[0:v][1:v]psnr=stats_file=${stats}`, "-f", "null", "-"]);
    return (await readFile(stats, "utf8"))
      .trim()
      .split("\n")
      .map((l) => {
        const v = /psnr_avg:(\S+)/.exec(l)?.[1];
        return v === "inf" ? Number.POSITIVE_INFINITY : Number(v);
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `<out>` (a PNG): frames seam−2 … seam+1 of `a` over the same frames of `b`, each at 2× (nearest
 * neighbour), to look at a seam.
 */
export async function seamCrops(a: string, b: string, seam: number, out: string): Promise<void> {
  const pick = `select='between(n\\,${seam - 2}\\,${seam + 1})',scale=iw*2:ih*2:flags=neighbor,tile=4x1`;
  await ffmpeg([
    ...["-i", a, "-i", b, "-filter_complex", `[0:v]${pick}[top];[1:v]${pick}[bottom];[top][bottom]vstack`],
    ...["-frames:v", "1", "-y", out],
  ]);
}
