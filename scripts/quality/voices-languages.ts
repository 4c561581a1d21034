/**
 * Other languages on real voices (scripts/quality-voices.ts): how often the lips close for each bilabial the
 * transcript has. Bilabials are counted in espeak-ng's phonemes of the transcript (p, b, m; a doubled one once;
 * digits read as words), which also spots the Spanish v read as b.
 */
import { join } from "node:path";
import { espeakPhonemes, espeakTool } from "../speech/espeak-phonemes";
import { decode16k } from "../speech/tts";
import { corePrompts, VOICES_DIR } from "../speech/voices";
import { closures } from "./voices-measure";
import type { Channels } from "./phonetic-measure";

const VOICE: Record<string, string> = { es: "es-419", fr: "fr", it: "it", ru: "ru" };

function bilabials(tool: string, lang: string, text: string): number {
  const { events } = espeakPhonemes(tool, join(VOICES_DIR, "transfer"), VOICE[lang], 160, text);
  let n = 0;
  let last = "";
  for (const e of events) {
    const base = e.name.normalize("NFD").replace(/[^a-z]/g, "");
    if (["p", "b", "m"].includes(base) && base !== last) n++;
    last = base;
  }
  return n;
}

/** Per language, closures and bilabials over its held-out (or validation) prompts. */
export function closureRates(run: (pcm: Float32Array) => Channels[], validation = false) {
  const tool = espeakTool(join(VOICES_DIR, "transfer"));
  return Object.keys(VOICE).map((lang) => {
    let [seals, labials, clips] = [0, 0, 0];
    for (const c of corePrompts(lang).filter((c) => (validation ? c.validation : c.heldOut))) {
      seals += closures(run(decode16k(c.wav)));
      labials += bilabials(tool, lang, c.text);
      clips++;
    }
    return { lang, clips, seals, labials, perBilabial: seals / (labials || 1) };
  });
}
