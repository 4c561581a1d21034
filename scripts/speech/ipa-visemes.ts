/**
 * espeak-ng's IPA phoneme names → viseme classes (packages/motion-model/src/visemes.ts), for any of its
 * languages: diacritics (length, nasalisation, stress) are dropped, a diphthong is its first vowel for the
 * first half and its second for the rest. Phonemes whose lips are in between (the bilabial approximant β,
 * the glottal stop) are left unlabelled (−1) rather than taught as either.
 */
import { VISEMES, type Viseme } from "../../packages/motion-model/src/visemes";

const CLASS: Record<Viseme, string[]> = {
  rest: [""],
  mbp: ["p", "b", "m"],
  fv: ["f", "v", "ɱ"],
  round: ["u", "ʊ", "o", "ɔ", "y", "ʏ", "ø", "œ", "w", "ʍ", "ɥ", "ɵ", "ʉ", "ɞ"],
  spread: ["i", "ɪ", "e", "j", "ɨ", "ʝ", "ɟ"],
  open: ["a", "æ", "ɑ", "ɐ", "ʌ", "ɒ", "ɶ"],
  mid: ["ə", "ɚ", "ɜ", "ɝ", "ɛ", "ɘ", "ɤ", "ɯ", "ᵻ"],
  tongue: [
    "t",
    "d",
    "n",
    "l",
    "s",
    "z",
    "k",
    "ɡ",
    "g",
    "ŋ",
    "h",
    "ɾ",
    "θ",
    "ð",
    "x",
    "ç",
    "ɲ",
    "ʎ",
    "ɣ",
    "ʁ",
    "ʀ",
    "χ",
    "ɦ",
    "ɫ",
    "ɬ",
    "r",
    "ʋ",
    "c",
    "ɹ̩",
    "ɭ",
    "ɳ",
    "ʈ",
    "ɖ",
    "q",
  ],
  sh: ["ʃ", "ʒ", "ɹ", "ɕ", "ʑ", "ʂ", "ʐ"],
};
const UNLABELLED = new Set(["β", "ʔ", "ɸ"]);
const LOOKUP = new Map<string, number>(
  Object.entries(CLASS).flatMap(([v, names]) =>
    names.map((n) => [n, VISEMES.indexOf(v as Viseme)] as [string, number]),
  ),
);
const VOWELS = new Set(
  [...CLASS.round, ...CLASS.spread, ...CLASS.open, ...CLASS.mid].filter(
    (c) => !["w", "ʍ", "ɥ", "j", "ʝ", "ɟ"].includes(c),
  ),
);

/** Drop length marks, stress, tie bars and combining diacritics. */
const base = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ːˑˈˌ˞\-ʰʲʷ]/g, "");

/** Class per half of the phoneme: [first half, second half]; −1 = unlabelled. */
export function visemesOf(name: string): [number, number] {
  const b = base(name);
  if (LOOKUP.has(b)) return [LOOKUP.get(b)!, LOOKUP.get(b)!];
  const chars = [...b];
  if (chars.some((c) => UNLABELLED.has(c))) return [-1, -1];
  // Affricates (tʃ, dʒ, ts, pf): the lips of the release.
  if (chars.length === 2 && !VOWELS.has(chars[0]) && LOOKUP.has(chars[1]))
    return [LOOKUP.get(chars[1])!, LOOKUP.get(chars[1])!];
  // Diphthongs and vowel + r-colouring.
  if (chars.length >= 2 && VOWELS.has(chars[0])) {
    const first = LOOKUP.get(chars[0])!;
    const second = LOOKUP.get(chars[chars.length - 1]);
    return [first, second ?? first];
  }
  return [-1, -1];
}
