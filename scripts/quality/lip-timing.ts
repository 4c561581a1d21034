/**
 * When the lips move against the sounds, in the renderer's timing (the whole-file track sampled at the
 * frame's time plus the lip lead), on espeak-ng speech whose phoneme positions the synthesiser gives:
 *
 *   tsx scripts/quality/lip-timing.ts [--model path/to/lipsync.ts]
 *
 * (`--model` measures another tree's packages/motion-model, e.g. a worktree of the model before issue 25.)
 * Prints, over four voices and sentences full of m/b/p (docs/animation.md, "Results"):
 *  - part: for every m, b and p followed by a vowel, when the shown seal (press ≥ 0.5) ends, against the
 *    vowel's start; median and quartiles, ms (after m the lips part at the vowel; espeak-ng's p segment is
 *    its burst and aspiration, ≈ 37 ms after the closure's silence, so a p's lips part that much earlier)
 *  - shown: share of those m/b/p sealed on at least one 25 fps frame
 *  - half-open: when the shown opening (open × (1 − press)) reaches half its peak in a vowel of ≥ 80 ms,
 *    against the vowel's start, by what precedes the vowel (m/b/p, another consonant, a pause); −100 = already
 *    half open 100 ms before it
 * Needs espeak-ng and libespeak-ng-dev (the phoneme events tool is compiled on first use, as for training).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as current from "../../packages/motion-model/src/lipsync";
import { LIP_LEAD_SECONDS } from "../../container/src/video/public";
import { espeakPhonemes, espeakTool } from "../speech/espeak-phonemes";
import { RATE } from "../speech/tts";
import { percentile } from "./metrics";

const FPS = 25;
const TEXTS = [
  "Maybe we should meet at the park by the pool.",
  "Papa bought a map. Bob bumped the big blue boat.",
  "My mom made a lemon pie, and Jimmy put a bomb in the tub.",
  "Hello, my name is Bob. Would you move over, please?",
  "Oh wow, you're on time! I must admit, what a beautiful morning, Tom.",
  "Put the blue boot back by the boat, Mom. The number of members may improve by both amounts.",
];
const VOICES: Array<[string, number]> = [
  ["en-us", 150],
  ["en-us+f3", 220],
  ["en+f3", 170],
  ["en-us+m3", 130],
];
const VOWEL = /[aeiouɑæɐɒɔəɛɜɪʊʌɚɝ]/;
const BILABIAL = /^[mbp]$/;

type Model = Pick<typeof current, "analyzeLipSync" | "sampleTrack">;

function measure(model: Model, dir: string) {
  const tool = espeakTool(dir);
  const part: Record<string, number[]> = { m: [], b: [], p: [] };
  let shown = 0;
  let bilabials = 0;
  const halfOpen: Record<string, number[]> = { "m/b/p": [], other: [], pause: [] };
  for (const [voice, wpm] of VOICES)
    for (const text of TEXTS) {
      const s = espeakPhonemes(tool, dir, voice, wpm, text);
      const b = execFileSync("ffmpeg", ["-v", "error", ...s.input, "-ar", String(RATE), "-f", "f32le", "pipe:1"], {
        maxBuffer: 1 << 28,
      });
      const track = model.analyzeLipSync(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
      const at = (t: number) => model.sampleTrack(track, t + LIP_LEAD_SECONDS);
      const ev = s.events;
      for (let i = 1; i + 1 < ev.length; i++) {
        const [a, e] = [ev[i].t, ev[i + 1].t];
        if (BILABIAL.test(ev[i].name) && VOWEL.test(ev[i + 1].name)) {
          bilabials++;
          let onFrame = false;
          for (let f = Math.ceil(a * FPS); f / FPS <= e + 1 / FPS; f++) onFrame ||= at(f / FPS).press >= 0.5;
          if (onFrame) shown++;
          let t = a - 0.03;
          while (t <= e + 0.05 && at(t).press < 0.5) t += 0.001;
          if (t > e + 0.05) continue;
          while (at(t + 0.001).press >= 0.5 && t < e + 0.3) t += 0.001;
          part[ev[i].name].push((t - e) * 1000);
        }
        if (!VOWEL.test(ev[i].name) || e - a < 0.08) continue;
        const shownOpen = (t: number) => {
          const m = at(t);
          return m.open * (1 - Math.min(1, m.press));
        };
        let peak = 0;
        for (let t = a; t <= e; t += 0.001) peak = Math.max(peak, shownOpen(t));
        if (peak < 0.1) continue;
        let t = a - 0.1;
        while (shownOpen(t) < peak / 2) t += 0.001;
        const before = ev[i - 1].name;
        halfOpen[before === "" ? "pause" : BILABIAL.test(before) ? "m/b/p" : "other"].push((t - a) * 1000);
      }
    }
  return { part, shown: shown / bilabials, bilabials, halfOpen };
}

const { values } = parseArgs({ options: { model: { type: "string" } } });
const model: Model = values.model ? await import(resolve(values.model)) : current;
const dir = mkdtempSync(join(tmpdir(), "lip-timing-"));
try {
  const r = measure(model, dir);
  const q = (v: number[]) => [0.25, 0.5, 0.75].map((p) => Math.round(percentile(v, p)));
  for (const [c, v] of Object.entries(r.part))
    console.log(
      `${c} → vowel (${v.length}): lips part at the vowel's start ${q(v)[1]} ms (quartiles ${q(v)[0]} … ${q(v)[2]})`,
    );
  console.log(`m/b/p sealed on a ${FPS} fps frame: ${Math.round(r.shown * 100)} % of ${r.bilabials}`);
  for (const [k, v] of Object.entries(r.halfOpen))
    console.log(
      `vowel after ${k} (${v.length}): half open at its start ${q(v)[1]} ms (quartiles ${q(v)[0]} … ${q(v)[2]})`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
