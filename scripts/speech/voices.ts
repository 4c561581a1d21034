/**
 * Real human speech for measuring and training the mouth, from Debian packages (docs/phonetic-mouth.md,
 * "Real voices"): Asterisk's core prompts (English, Spanish, French, Italian and Russian, one professional
 * speaker each, 16 kHz G.722, with transcripts; CC-BY-SA-3.0 en/es/fr, CC-BY-3.0 it/ru) and the LibriVox
 * excerpts of pocketsphinx-testdata (read speech at 64 kbps with room noise; BSD-2). English phone timings
 * come from forced alignment (align.py: PocketSphinx 5 and its en-us model, in a venv under .local/voices).
 * The recordings stay out of the product; only weights trained on them ship.
 *
 * Held out for acceptance, never trained or tuned on: pocketsphinx-testdata, asterisk-prompt-it-menardi, and
 * the core prompts whose names begin with vm-, conf-, queue-, tt- or basic-. Of the other prompts about one in
 * seven is kept for validation (choices about training are made on it), the rest is for training.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

export const VOICES_DIR = resolve(import.meta.dirname, "../../.local/voices");
const ROOT = join(VOICES_DIR, "x");
const PACKAGES = [
  ...["en", "es", "fr", "it", "ru"].flatMap((l) => [`asterisk-core-sounds-${l}`, `asterisk-core-sounds-${l}-g722`]),
  "pocketsphinx-testdata",
];
const HELD_OUT_PREFIXES = ["vm-", "conf-", "queue-", "tt-", "basic-"];
const SPEAKERS: Record<string, string> = {
  en: "en_US_f_Allison",
  es: "es_MX_f_Allison",
  fr: "fr_CA_f_June",
  it: "it_IT_m_Carlo",
  ru: "ru_RU_f_IvrvoiceRU",
};

export interface Clip {
  id: string;
  lang: string;
  speaker: string;
  /** 16 kHz mono PCM16 WAV. */
  wav: string;
  text: string;
  /** Acceptance only (never trained or tuned on). */
  heldOut: boolean;
  /** Not trained on, for choosing how to train (about one prompt in seven, by name). */
  validation: boolean;
}

/** The packages' files under .local/voices/x (downloaded with `apt-get download` and unpacked once). */
export function ensurePackages(): void {
  const debs = join(VOICES_DIR, "deb");
  mkdirSync(debs, { recursive: true });
  const have = readdirSync(debs);
  const missing = PACKAGES.filter((p) => !have.some((f) => f.startsWith(`${p}_`)));
  if (missing.length) execFileSync("apt-get", ["download", ...missing], { cwd: debs, stdio: "inherit" });
  if (existsSync(join(ROOT, "usr"))) return;
  for (const f of readdirSync(debs)) execFileSync("dpkg", ["-x", join(debs, f), ROOT]);
}

export const isHeldOut = (name: string) => HELD_OUT_PREFIXES.some((p) => name.startsWith(p));

/** About one in seven of the other prompts, fixed by name (FNV-1a). */
function isValidation(name: string): boolean {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return (h >>> 0) % 7 === 0;
}

function toWav(input: string[], out: string): string {
  if (!existsSync(out)) {
    mkdirSync(dirname(out), { recursive: true });
    execFileSync("ffmpeg", ["-v", "error", "-y", ...input, "-ar", "16000", "-ac", "1", out]);
  }
  return out;
}

/** The core prompts of `lang` with their transcripts (prompts of tones or without a recording left out). */
export function corePrompts(lang: string): Clip[] {
  ensurePackages();
  const speaker = SPEAKERS[lang];
  const doc = join(ROOT, `usr/share/doc/asterisk-core-sounds-${lang}/core-sounds-${lang}.txt.gz`);
  const clips: Clip[] = [];
  for (const line of gunzipSync(readFileSync(doc)).toString("utf8").split("\n")) {
    const m = /^([^;\s:][^:]*):\s*(.+)$/.exec(line.trim());
    if (!m || m[2].startsWith("[")) continue;
    const [name, text] = [m[1].trim(), m[2].trim()];
    const g722 = join(ROOT, "usr/share/asterisk/sounds", speaker, `${name}.g722`);
    if (!existsSync(g722)) continue;
    const wav = toWav(["-f", "g722", "-i", g722], join(VOICES_DIR, "wav", lang, `${name}.wav`));
    const heldOut = isHeldOut(name);
    clips.push({
      id: `${lang}/${name}`,
      lang,
      speaker,
      wav,
      text,
      heldOut,
      validation: !heldOut && isValidation(name),
    });
  }
  return clips;
}

/** pocketsphinx-testdata's five consecutive LibriVox excerpts of one reader (held out). */
export function librivox(): Clip[] {
  ensurePackages();
  const dir = join(ROOT, "usr/share/pocketsphinx/test/data/librivox");
  return readFileSync(join(dir, "transcription"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const m = /^<s>\s*(.+?)\s*<\/s>\s*\((.+)\)$/.exec(line.trim());
      if (!m) return [];
      const wav = toWav(["-i", join(dir, `${m[2]}.wav`)], join(VOICES_DIR, "wav", "librivox", `${m[2]}.wav`));
      return [
        { id: `librivox/${m[2]}`, lang: "en", speaker: "librivox", wav, text: m[1], heldOut: true, validation: false },
      ];
    });
}

const DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

/**
 * An English transcript as the aligner's dictionary spells it: lower case, `*` star, `#` pound, single digits
 * as words; undefined for a number of several digits (how it is read is not known).
 */
export function alignableEnglish(text: string): string | undefined {
  const t = text.toLowerCase().replace(/\*/g, " star ").replace(/#/g, " pound ").replace(/[-/]/g, " ");
  if (/\d\d/.test(t)) return undefined;
  return t
    .replace(/\d/g, (d) => ` ${DIGITS[Number(d)]} `)
    .replace(/[^a-z' ]/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean)
    .join(" ");
}

export type Timed = [string, number, number];
export interface Alignment {
  words: Timed[];
  /** ARPAbet phones (upper case) and SIL, with start and end (s). */
  phones: Timed[];
}

/**
 * Phone timings of English clips (cached in .local/voices/align-en.json by id and text). Clips the aligner
 * cannot take (a word not in its dictionary) are left out of the answer.
 */
export function alignEnglish(clips: Clip[]): Map<string, Alignment> {
  const cacheFile = join(VOICES_DIR, "align-en.json");
  const cache: Record<string, Alignment & { text: string; error?: string }> = existsSync(cacheFile)
    ? JSON.parse(readFileSync(cacheFile, "utf8"))
    : {};
  const jobs = clips.flatMap((c) => {
    const text = alignableEnglish(c.text);
    return text !== undefined && cache[c.id]?.text !== text ? [{ id: c.id, wav: c.wav, text }] : [];
  });
  if (jobs.length) {
    const out = execFileSync(python(), [join(import.meta.dirname, "align.py")], {
      input: jobs.map((j) => JSON.stringify(j)).join("\n"),
      maxBuffer: 1 << 28,
    });
    for (const line of out.toString("utf8").split("\n").filter(Boolean)) {
      const r = JSON.parse(line);
      cache[r.id] = { ...r, text: jobs.find((j) => j.id === r.id)!.text };
    }
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  const out = new Map<string, Alignment>();
  for (const c of clips) {
    const a = cache[c.id];
    if (a && !a.error && a.text === alignableEnglish(c.text)) out.set(c.id, a);
  }
  return out;
}

/** A Python with PocketSphinx 5 (a venv in .local/voices, made on first use from this machine's pip index). */
function python(): string {
  const venv = join(VOICES_DIR, "venv");
  const bin = join(venv, "bin", "python");
  if (!existsSync(bin)) {
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
    execFileSync(join(venv, "bin", "pip"), ["install", "pocketsphinx==5.1.1"], { stdio: "inherit" });
  }
  return bin;
}
