/**
 * Is the video in step with the mouth model? Correlates the inner-lip gap that `npm run quality --json`
 * read from each MP4 with the opening the motion model shows at that frame (open × (1 − press) of the
 * voice's whole-file track, sampled as the renderer samples it), at frame shifts −2…+2:
 *
 *   tsx scripts/quality/model-sync.ts --json quality.json --voice voice.wav [--lead-in 0.6]
 *
 * A peak at 0 means the render and the reading add no delay; the model's own timing against the sounds is
 * scripts/quality/lip-timing.ts. `--lead-in` is the render's leadInSeconds (the sample set's 0.6).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { analyzeLipSync, sampleTrack } from "../../packages/motion-model/src/lipsync";
import { FPS, LIP_LEAD_SECONDS, OPENING_SECONDS } from "../../container/src/video/public";
import { decode16k } from "../speech/tts";
import { pearson } from "./metrics";
import type { QualityResult } from "../quality";

const { values } = parseArgs({
  options: { json: { type: "string" }, voice: { type: "string" }, "lead-in": { type: "string", default: "0.6" } },
});
if (!values.json || !values.voice) {
  console.error("usage: tsx scripts/quality/model-sync.ts --json quality.json --voice voice.wav [--lead-in 0.6]");
  process.exit(2);
}
const track = analyzeLipSync(decode16k(values.voice));
const speechStart = Number(values["lead-in"]) + OPENING_SECONDS;
console.log("video | corr at shift −2 / −1 / 0 / +1 / +2 (positive = video after the model)");
for (const r of JSON.parse(readFileSync(values.json, "utf8")) as QualityResult[]) {
  const gap = r.perFrame!.gap;
  const shown = gap.map((_, i) => {
    const m = sampleTrack(track, i / FPS - speechStart + LIP_LEAD_SECONDS);
    return m.open * (1 - Math.min(1, m.press));
  });
  const corr = (s: number) => {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < gap.length; i++)
      if (i + s >= 0 && i + s < gap.length && Number.isFinite(gap[i + s])) {
        a.push(gap[i + s]);
        b.push(shown[i]);
      }
    return pearson(a, b);
  };
  console.log(`${r.video} | ${[-2, -1, 0, 1, 2].map((s) => corr(s).toFixed(2)).join(" / ")}`);
}
