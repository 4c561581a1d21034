/**
 * Words of known content for measuring mouth shapes (scripts/quality-phonetic.ts). None of them is in the
 * training text of the viseme classifier (scripts/speech/corpus.ts checks it).
 */

/** A bilabial (m, b, p) inside the word, not only at its edges. */
export const BILABIAL_INSIDE = [
  "hammer",
  "number",
  "maple",
  "simple",
  "rubber",
  "happy",
  "apple",
  "summer",
  "cabin",
  "lemon",
  "ribbon",
  "table",
];
/** No bilabial and no f/v anywhere: the lips should not seal. */
export const NO_BILABIAL = [
  "water",
  "little",
  "kitten",
  "sister",
  "letter",
  "dinner",
  "garden",
  "yellow",
  "lady",
  "sugar",
  "tiger",
  "candle",
];
/** f or v inside the word: the lower lip goes under the upper teeth. */
export const LABIODENTAL_INSIDE = [
  "coffee",
  "seven",
  "river",
  "heavy",
  "office",
  "never",
  "safety",
  "lifted",
  "oven",
  "gravel",
  "shuffle",
  "civil",
];
/** Rounded vowels (oo, o) or w, without bilabials. */
export const ROUNDED = ["who", "shoe", "two", "zoo", "food", "rule", "goose", "go", "no", "show", "road", "soon"];
/** Spread vowels (ee, i), without bilabials. */
export const SPREAD = ["see", "key", "tea", "he", "cheese", "seat", "need", "eat", "these", "keen", "sheet", "geese"];
/** Open vowels (a, ah). */
export const OPEN = ["hot", "cat", "car", "dog", "hard", "large", "sad", "hat", "odd", "got", "lot", "dark"];
/** Close vowels (ee, oo). */
export const CLOSE = ["see", "key", "he", "tea", "who", "two", "zoo", "do", "knee", "shoe", "new", "glue"];

/** Running speech for rhythm: the opening of the Rainbow Passage (public domain). */
export const PASSAGE =
  "When the sunlight strikes raindrops in the air, they act as a prism and form a rainbow. The rainbow is a division of white light into many beautiful colors. These take the shape of a long round arch, with its path high above, and its two ends apparently beyond the horizon. There is, according to legend, a boiling pot of gold at one end. People look, but no one ever finds it.";

export const ALL_WORDS = [
  ...new Set([...BILABIAL_INSIDE, ...NO_BILABIAL, ...LABIODENTAL_INSIDE, ...ROUNDED, ...SPREAD, ...OPEN, ...CLOSE]),
];
