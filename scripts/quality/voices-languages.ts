/**
 * Other languages on real voices (scripts/quality-voices.ts, quality-languages.ts): how often the lips close for
 * each bilabial the transcript has. Bilabials are counted in espeak-ng's phonemes of the transcript (p, b, m; a
 * doubled one once; digits read as words), which also spots the Spanish v read as b. Where each closure falls:
 * the class transfer.ts gives the frames it shows (espeak-ng's phonemes of the transcript matched to the
 * recording by dynamic time warping), "m/b/p" if any of them is one.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIP_LEAD_SECONDS } from "@avatar-video/motion-model";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { espeakPhonemes, espeakTool } from "../speech/espeak-phonemes";
import { transferClasses } from "../speech/transfer";
import { decode16k } from "../speech/tts";
import { corePrompts, VOICES_DIR } from "../speech/voices";
import { isBilabial } from "./espeak-languages";
import type { Channels } from "./phonetic-measure";

export const REAL_VOICES: Record<string, string> = { es: "es-419", fr: "fr", it: "it", ru: "ru" };
const FPS = 25;

/** Scratch files of this process (the training writes its own in VOICES_DIR/transfer). */
const scratch = mkdtempSync(join(tmpdir(), "voices-languages-"));

function bilabials(tool: string, lang: string, text: string): number {
  const { events } = espeakPhonemes(tool, scratch, REAL_VOICES[lang], 160, text);
  let n = 0;
  let last = false;
  for (const e of events) {
    const b = isBilabial(e.name);
    if (b && !last) n++;
    last = b;
  }
  return n;
}

/** Runs of frames with lipsClosed ≥ 0.5: [first, last]. */
function closureRuns(ch: Channels[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < ch.length; i++)
    if (ch[i].lipsClosed >= 0.5) {
      if (i > 0 && ch[i - 1].lipsClosed >= 0.5) runs[runs.length - 1][1] = i;
      else runs.push([i, i]);
    }
  return runs;
}

const classesOf = new Map<string, Int8Array | undefined>();

/**
 * What the transferred classes say a closure (frames `run`) shows: "m/b/p" if one is labelled within 60 ms
 * (transfer.ts leaves other frames that near one unlabelled), else the class most of its frames ± 20 ms have,
 * or "unsure".
 */
function site(classes: Int8Array | undefined, [n, m]: [number, number]): string {
  if (!classes) return "unsure";
  const span = (pad: number) => [
    Math.max(0, Math.floor((n / FPS + LIP_LEAD_SECONDS - pad) * 100)),
    Math.min(classes.length - 1, Math.ceil(((m + 1) / FPS + LIP_LEAD_SECONDS + pad) * 100)),
  ];
  const [a0, b0] = span(0.06);
  for (let i = a0; i <= b0; i++) if (classes[i] === VISEMES.indexOf("mbp")) return "m/b/p";
  const [a, b] = span(0.02);
  const count = new Map<number, number>();
  for (let i = a; i <= b; i++) if (classes[i] >= 0) count.set(classes[i], (count.get(classes[i]) ?? 0) + 1);
  const best = [...count].sort((x, y) => y[1] - x[1])[0];
  return best ? VISEMES[best[0]] : "unsure";
}

/**
 * Per language, closures and bilabials over its held-out (or validation) prompts, and with `sites` where the
 * closures fall (a warp per prompt: slower).
 */
export function closureRates(run: (pcm: Float32Array) => Channels[], validation = false, sites = false) {
  const tool = espeakTool(join(VOICES_DIR, "transfer"));
  return Object.keys(REAL_VOICES).map((lang) => {
    let [seals, labials, clips] = [0, 0, 0];
    const at: Record<string, number> = {};
    for (const c of corePrompts(lang).filter((c) => (validation ? c.validation : c.heldOut))) {
      const pcm = decode16k(c.wav);
      const runs = closureRuns(run(pcm));
      if (sites && !classesOf.has(c.id))
        classesOf.set(c.id, transferClasses(tool, scratch, REAL_VOICES[lang], c.text, pcm));
      for (const r of sites ? runs : []) {
        const s = site(classesOf.get(c.id), r);
        at[s] = (at[s] ?? 0) + 1;
      }
      seals += runs.length;
      labials += bilabials(tool, lang, c.text);
      clips++;
    }
    return { lang, clips, seals, labials, perBilabial: seals / (labials || 1), sites: at };
  });
}
