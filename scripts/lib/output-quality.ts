/**
 * The "no visible loss" check of bench-render (issue 22): the render's MP4 against a lossless encode of the
 * same frames (a second render of the same job, deterministic, with x264 at `-qp 0`), as ffmpeg's SSIM over
 * every frame, and the MP4's size. A speed lever may change neither beyond the rule in docs/rendering.md.
 */
import { BT709, ffmpegPath, run } from "../../container/src/media/public";

/** x264 lossless (the fastest preset: the reference's speed does not matter, its frames do). */
export const LOSSLESS_VIDEO_ARGS = [
  "-c:v",
  "libx264",
  "-preset",
  "ultrafast",
  "-qp",
  "0",
  "-pix_fmt",
  "yuv420p",
  ...BT709,
];

/** Mean SSIM (all planes, ffmpeg's "All") of `mp4` against `reference`, frame by frame. */
export async function ssimAgainst(mp4: string, reference: string): Promise<number> {
  const r = await run(ffmpegPath(), [
    "-hide_banner",
    "-nostdin",
    "-i",
    mp4,
    "-i",
    reference,
    "-lavfi",
    "[0:v][1:v]ssim",
    "-f",
    "null",
    "-",
  ]);
  const m = / All:([\d.]+)/.exec(r.stderr);
  if (r.code !== 0 || !m) throw new Error(`ssim failed: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}
