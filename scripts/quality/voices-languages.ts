/**
 * Other languages on real voices (scripts/quality-voices.ts, quality-languages.ts): how often the lips close for
 * each bilabial the transcript has. Bilabials are counted in espeak-ng's phonemes of the transcript (p, b, m; a
 * doubled one once; digits read as words), which also spots the Spanish v read as b. Where each closure falls:
 * the espeak-ng phoneme of the transcript that transfer.ts's warp matches the frames it shows to (a stop's
 * span reaching back over its silent closure), "m/b/p" if one lies within 60 ms.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIP_LEAD_SECONDS } from "@avatar-video/motion-model";
import { espeakPhonemes, espeakTool } from "../speech/espeak-phonemes";
import { warpToEspeak } from "../speech/transfer";
import { decode16k, RATE } from "../speech/tts";
import { corePrompts, VOICES_DIR } from "../speech/voices";
import { bare, isBilabial, spans, withClosures } from "./espeak-languages";
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
export function closureRuns(ch: Channels[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < ch.length; i++)
    if (ch[i].lipsClosed >= 0.5) {
      if (i > 0 && ch[i - 1].lipsClosed >= 0.5) runs[runs.length - 1][1] = i;
      else runs.push([i, i]);
    }
  return runs;
}

export type Warp = { path: Int32Array; phonemes: Array<{ name: string; a: number; b: number }> } | undefined;
const warps = new Map<string, Warp>();

export function warp(tool: string, lang: string, id: string, text: string, pcm: Float32Array): Warp {
  if (!warps.has(id)) {
    const w = warpToEspeak(tool, scratch, REAL_VOICES[lang], text, pcm);
    warps.set(id, w && { path: w.path, phonemes: withClosures(spans(w.synth), w.spcm, RATE) });
  }
  return warps.get(id);
}

/**
 * The phoneme a closure (frames `run`) shows: "m/b/p" if the warp matches a frame within 60 ms of it to one,
 * else the phoneme most of its frames ± 20 ms are matched to ("pause" for espeak-ng's pauses).
 */
function site(w: Warp, [n, m]: [number, number]): string {
  if (!w) return "unsure";
  const at = (pad: number) => {
    const names: string[] = [];
    const [a, b] = [n / FPS + LIP_LEAD_SECONDS - pad, (m + 1) / FPS + LIP_LEAD_SECONDS + pad];
    for (let i = Math.max(0, Math.floor(a * 100)); i <= b * 100 && i < w.path.length; i++) {
      const t = (w.path[i] + 0.5) / 100;
      const p = w.phonemes.find((p) => t >= p.a && t < p.b);
      if (w.path[i] >= 0 && p) names.push(p.name);
    }
    return names;
  };
  if (at(0.06).some(isBilabial)) return "m/b/p";
  const count = new Map<string, number>();
  for (const name of at(0.02)) count.set(bare(name) || "pause", (count.get(bare(name) || "pause") ?? 0) + 1);
  return [...count].sort((x, y) => y[1] - x[1])[0]?.[0] ?? "unsure";
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
      for (const r of sites ? runs : []) {
        const s = site(warp(tool, lang, c.id, c.text, pcm), r);
        at[s] = (at[s] ?? 0) + 1;
      }
      seals += runs.length;
      labials += bilabials(tool, lang, c.text);
      clips++;
    }
    return { lang, clips, seals, labials, perBilabial: seals / (labials || 1), sites: at };
  });
}
