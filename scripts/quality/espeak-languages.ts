/**
 * Lips on espeak-ng's voices of other languages (scripts/quality-languages.ts): common words
 * (language-words.ts) spoken one by one and joined by 0.7 s silences, with espeak-ng's own phoneme positions
 * saying which words have a p, b or m and where, and which sound a frame shows.
 *  - a word with bilabials *seals* if each of them has a sealed frame (lipsClosed ≥ 0.5 or mouthOpen ≤ 0.08)
 *    among the frames showing it ± 20 ms (a doubled or clustered one, as in "mamma" or "hombre", is one)
 *  - a word without (nor f, v, ɸ, β, ʋ, whose lips come close too) *shows a seal* if a frame showing it has
 *    lipsClosed ≥ 0.5, or one of its interior (the word minus 20 % at each end) has mouthOpen ≤ 0.08 — the
 *    mouth still shut as a word starts or already shut as it ends is not a seal
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LIP_LEAD_SECONDS } from "@avatar-video/motion-model";
import { type EspeakSpeech, espeakPhonemes } from "../speech/espeak-phonemes";
import { RATE } from "../speech/tts";
import type { Language } from "./language-words";
import type { Channels } from "./phonetic-measure";

const FPS = 25;
const GAP = 0.7;
const SLACK = 0.02;

/** A phoneme name without stress, length and combining marks. */
export const bare = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ˈˌːˑ]/g, "");
/** p, b, m, also aspirated, breathy or palatalised (pʰ, ph in espeak-ng's pinyin, bʱ, mʲ). */
export const isBilabial = (name: string) => /^[pbm][hʰʱʲ]*$/.test(bare(name));
/** Lips that come close without sealing: labiodentals and bilabial fricatives or approximants. */
const LABIAL_NEAR = /[fvɱɸβʋ]/;
/** An event that only modifies the phoneme before it (espeak-ng gives Russian palatalisation its own). */
const MODIFIER = /^[ʲʰʱ]+$/;

export interface WordSpeech {
  word: string;
  /** Audio times (s) in the joined recording. */
  start: number;
  end: number;
  phonemes: Array<{ name: string; a: number; b: number }>;
  /** Spans of p/b/m (runs of them joined). */
  bilabials: Array<{ name: string; a: number; b: number }>;
  labialNear: boolean;
}

/** Stops and affricates: espeak-ng's event marks the release; the closure is the silence before it. */
const STOP = /^[pbtdkɡgqcɟʈɖ]/;
const CLOSURE_DB = 35;
const MAX_CLOSURE = 0.15;

/**
 * Each stop's span moved back over the silent closure before its release (≤ 150 ms); a word's first one
 * keeps its place (its closure is the silence before the word).
 */
export function withClosures(phonemes: WordSpeech["phonemes"], pcm: ArrayLike<number>, rate: number) {
  const hop = Math.round(rate / 200);
  if (!phonemes.length) return phonemes;
  const db = (t: number) => {
    let e = 0;
    const i0 = Math.max(0, Math.round(t * rate) - hop);
    for (let i = i0; i < i0 + hop && i < pcm.length; i++) e += pcm[i] * pcm[i];
    return 10 * Math.log10(e / hop + 1e-9);
  };
  let peak = -Infinity;
  for (let t = 0; t < pcm.length / rate; t += hop / rate) peak = Math.max(peak, db(t + hop / rate));
  return phonemes.map((p, k) => {
    if (!k || !STOP.test(bare(p.name))) return p;
    let a = p.a;
    const floor = Math.max(phonemes[k - 1].a, p.a - MAX_CLOSURE);
    while (a - hop / rate > floor && db(a) < peak - CLOSURE_DB) a -= hop / rate;
    phonemes[k - 1] = { ...phonemes[k - 1], b: Math.min(phonemes[k - 1].b, a) };
    return { ...p, a };
  });
}

/** espeak-ng's phonemes as spans (s): each until the next ("" = a pause). */
export const spans = (s: EspeakSpeech) =>
  s.events.map((e, k) => ({ name: e.name, a: e.t, b: s.events[k + 1]?.t ?? s.end })).filter((p) => p.b > p.a);

function wordSpeech(word: string, phonemes: WordSpeech["phonemes"]): WordSpeech {
  const bilabials: WordSpeech["bilabials"] = [];
  let last = "";
  for (const p of phonemes) {
    const span = bilabials[bilabials.length - 1];
    if (isBilabial(p.name) && isBilabial(last) && span) span.b = p.b;
    else if (isBilabial(p.name)) bilabials.push({ ...p, name: bare(p.name) });
    else if (MODIFIER.test(bare(p.name)) && isBilabial(last) && span) span.b = p.b;
    if (!MODIFIER.test(bare(p.name))) last = p.name;
  }
  const labialNear = phonemes.some((p) => LABIAL_NEAR.test(bare(p.name)));
  return { word, start: phonemes[0].a, end: phonemes[phonemes.length - 1].b, phonemes, bilabials, labialNear };
}

/** `lang`'s words spoken by its espeak-ng voice, joined by silences, at 16 kHz; `dir` takes the scratch file. */
export function speakWords(tool: string, dir: string, lang: Language, wpm = 160) {
  const parts: Int16Array[] = [];
  const words: WordSpeech[] = [];
  let rate = 0;
  let at = 0;
  const gap = () => {
    parts.push(new Int16Array(Math.round(GAP * rate)));
    at += Math.round(GAP * rate);
  };
  for (const word of lang.words) {
    const s = espeakPhonemes(tool, dir, lang.voice, wpm, word);
    rate = Number(s.input[s.input.indexOf("-ar") + 1]);
    if (!parts.length) gap();
    const raw = readFileSync(join(dir, "utt.raw"));
    const pcm = new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    parts.push(pcm);
    const t0 = at / rate;
    const phonemes = withClosures(
      spans(s).filter((p) => p.name !== ""),
      pcm,
      rate,
    ).map((p) => ({
      ...p,
      a: t0 + p.a,
      b: t0 + p.b,
    }));
    words.push(wordSpeech(word, phonemes));
    at += pcm.length;
    gap();
  }
  const pcm16 = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
  // espeak-ng's rate → 16 kHz float.
  const args = `-v error -f s16le -ar ${rate} -ac 1 -i pipe:0 -ar ${RATE} -f f32le pipe:1`.split(" ");
  const out = execFileSync("ffmpeg", args, { input: pcm16, maxBuffer: 1 << 28 });
  return { pcm: new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)), words };
}

/** Indices of the frames showing audio times [a, b] (the mouth leads the sound). */
function frameRange(ch: Channels[], a: number, b: number): number[] {
  const out: number[] = [];
  for (let n = Math.max(0, Math.ceil((a - LIP_LEAD_SECONDS) * FPS)); n <= (b - LIP_LEAD_SECONDS) * FPS; n++)
    if (n < ch.length) out.push(n);
  return out;
}
const shownAt = (n: number) => n / FPS + LIP_LEAD_SECONDS;
const closedLooking = (f: Channels) => f.lipsClosed >= 0.5 || f.mouthOpen <= 0.08;

export interface LanguageFigures {
  withWords: number;
  sealedWords: number;
  bilabials: number;
  sealedBilabials: number;
  /** Words whose every bilabial has a frame with lipsClosed ≥ 0.5: sealed on a photo whose lips part at rest too. */
  pressedSealWords: number;
  withoutWords: number;
  falseWords: number;
  /** Of those, words whose lips pressed (lipsClosed ≥ 0.5), not only nearly closed. */
  pressedWords: number;
  /** Bilabials missed, by phoneme, with the words. */
  missed: Map<string, string[]>;
  /** Bilabials not pressed (sealed only by a small opening, or missed). */
  unpressed: Map<string, string[]>;
  /** Phonemes under the seals of words without bilabials, with the words. */
  falseAt: Map<string, string[]>;
}

const tally = (m: Map<string, string[]>, key: string, word: string) => m.set(key, [...(m.get(key) ?? []), word]);

export function languageFigures(ch: Channels[], words: WordSpeech[]): LanguageFigures {
  const f: LanguageFigures = {
    withWords: 0,
    sealedWords: 0,
    bilabials: 0,
    sealedBilabials: 0,
    pressedSealWords: 0,
    withoutWords: 0,
    falseWords: 0,
    pressedWords: 0,
    missed: new Map(),
    unpressed: new Map(),
    falseAt: new Map(),
  };
  for (const w of words) {
    if (w.bilabials.length) {
      const around = w.bilabials.map((b) => frameRange(ch, b.a - SLACK, b.b + SLACK));
      const ok = around.map((ns) => ns.some((n) => closedLooking(ch[n])));
      const pressed = around.map((ns) => ns.some((n) => ch[n].lipsClosed >= 0.5));
      if (pressed.every(Boolean)) f.pressedSealWords++;
      w.bilabials.forEach((b, i) => pressed[i] || tally(f.unpressed, b.name, w.word));
      f.withWords++;
      f.bilabials += ok.length;
      f.sealedBilabials += ok.filter(Boolean).length;
      if (ok.every(Boolean)) f.sealedWords++;
      w.bilabials.forEach((b, i) => ok[i] || tally(f.missed, b.name, w.word));
      continue;
    }
    if (w.labialNear) continue;
    f.withoutWords++;
    const cut = 0.2 * (w.end - w.start);
    const inner = new Set(frameRange(ch, w.start + cut, w.end - cut));
    const seals = frameRange(ch, w.start, w.end).filter(
      (n) => ch[n].lipsClosed >= 0.5 || (inner.has(n) && ch[n].mouthOpen <= 0.08),
    );
    if (!seals.length) continue;
    f.falseWords++;
    if (seals.some((n) => ch[n].lipsClosed >= 0.5)) f.pressedWords++;
    const under = new Set(
      seals.map((n) => bare([...w.phonemes].reverse().find((p) => p.a <= shownAt(n))?.name ?? w.phonemes[0].name)),
    );
    for (const p of under) tally(f.falseAt, p, w.word);
  }
  return f;
}
