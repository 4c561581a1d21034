/**
 * How far the lip corners come in, read from a video (docs/animation.md, "A smile that rounds"): the outer
 * lip corners (61–291) and inner ones (78–308) found by the lip-refined mesh in chosen frames, each ÷ the
 * same distance in the first frame listed (the photo at rest), and the inner-lip gap (13–14) in outer-eye-
 * corner distances.
 *
 *   tsx scripts/quality/mouth-width.ts --frames 0,59,104 a.mp4 [b.mp4 …]
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ffmpegPath } from "../../container/src/media/public";
import { RefinedMesh } from "./refined-mesh";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { frames: { type: "string" } } });
if (!values.frames || positionals.length === 0) throw new Error("usage: mouth-width.ts --frames 0,59,104 a.mp4 …");
const frames = values.frames.split(",").map(Number);
const mesh = await RefinedMesh.open();
for (const video of positionals) {
  const [W, H] = execFileSync(
    "ffprobe",
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", video],
    { encoding: "utf8" },
  )
    .trim()
    .split(",")
    .map(Number);
  const rgb = (f: number) =>
    execFileSync(
      ffmpegPath(),
      [
        "-v",
        "error",
        "-i",
        video,
        "-vf",
        `select=eq(n\\,${f})`,
        "-frames:v",
        "1",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgb24",
        "pipe:1",
      ],
      { maxBuffer: W * H * 4 },
    );
  console.log(video);
  let rest: { outer: number; inner: number } | undefined;
  for (const f of frames) {
    const p = await mesh.detect(rgb(f), W, H);
    if (!p) {
      console.log(`  frame ${f}: no face`);
      continue;
    }
    const d = (a: number, b: number) => Math.hypot(p[a][0] - p[b][0], p[a][1] - p[b][1]);
    const now = { outer: d(61, 291), inner: d(78, 308) };
    rest ??= now;
    const gap = d(13, 14) / d(33, 263);
    console.log(
      `  frame ${f}: mouth width ${(now.outer / rest.outer).toFixed(2)} (inner ${(now.inner / rest.inner).toFixed(2)}) of frame ${frames[0]}'s, gap ${gap.toFixed(3)}`,
    );
  }
}
await mesh.close();
