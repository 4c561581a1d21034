/**
 * espeak-ng speech with the synthesiser's own phoneme positions (espeak-events.c, built on demand against
 * Debian's libespeak-ng-dev): the training corpus's labels and the lip-timing measurement's ground truth.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The espeak-events tool in `dir` (compiled there the first time). */
export function espeakTool(dir: string): string {
  const tool = join(dir, "espeak-events");
  if (!existsSync(tool))
    execFileSync("cc", ["-O2", join(import.meta.dirname, "espeak-events.c"), "-o", tool, "-lespeak-ng"]);
  return tool;
}

export interface EspeakSpeech {
  /** ffmpeg input arguments for the raw PCM written to `dir`. */
  input: string[];
  /** Phonemes in order: start (s) and IPA name ("" = a pause). */
  events: Array<{ t: number; name: string }>;
  /** End of the speech (s). */
  end: number;
}

/** `text` spoken by espeak-ng `voice` at `wpm`, into `dir`/utt.raw. */
export function espeakPhonemes(tool: string, dir: string, voice: string, wpm: number, text: string): EspeakSpeech {
  const raw = join(dir, "utt.raw");
  const out = execFileSync(tool, [voice, String(wpm), text, raw])
    .toString()
    .trim()
    .split("\n");
  const rate = Number(out[0].split(" ")[1]);
  const end = Number(out[out.length - 1].split(" ")[1]) / rate;
  const events = out.slice(1, -1).map((l) => {
    const [s, name = ""] = l.split("\t");
    return { t: Number(s) / rate, name };
  });
  return { input: ["-f", "s16le", "-ar", String(rate), "-ac", "1", "-i", raw], events, end };
}
