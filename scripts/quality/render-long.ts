/**
 * Render one sample portrait (scripts/quality/samples.ts inputs) with any audio: used to make clips long
 * enough for a blink rate (docs/animation.md, "Blinks").
 *
 *   tsx scripts/quality/render-long.ts --inputs DIR --portrait phone --audio long.wav --out DIR [--size 768x768] [--no-blinks]
 *
 * --no-blinks renders the same clip with blinks switched off (head motion unchanged): the blink-free
 * reference the blink counter of scripts/quality.ts is calibrated against (no event may be found there).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderVideo } from "../../container/src/video/public";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portrait: { type: "string" },
    audio: { type: "string" },
    out: { type: "string" },
    size: { type: "string", default: "768x768" },
    "no-blinks": { type: "boolean", default: false },
  },
});
const [width, height] = values.size!.split("x").map(Number);
mkdirSync(values.out!, { recursive: true });
const r = await renderVideo({
  portraitPng: readFileSync(join(values.inputs!, `${values.portrait}.png`)),
  rig: JSON.parse(readFileSync(join(values.inputs!, `${values.portrait}.rig.json`), "utf8")),
  audioPath: values.audio!,
  settings: {
    width,
    height,
    fit: "crop",
    backgroundColor: "#000000",
    backgroundFit: "cover",
    leadInSeconds: 0.6,
    leadOutSeconds: 0.6,
  },
  workDir: values.out!,
  seed: 1234,
  animation: { blinks: !values["no-blinks"] },
});
console.log(
  `${values.portrait}${values["no-blinks"] ? " (no blinks)" : ""}: ${r.frames} frames, ${r.timings.total} ms → ${r.mp4Path}`,
);
