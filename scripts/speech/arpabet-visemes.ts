/**
 * flite's phone names (CMU ARPAbet, lower case) → viseme classes (packages/motion-model/src/visemes.ts), as
 * [first half, second half]: diphthongs move from their first vowel to their second.
 */
import { VISEMES, type Viseme } from "../../packages/motion-model/src/visemes";

const CLASS: Record<Viseme, string[]> = {
  rest: ["pau"],
  mbp: ["p", "b", "m"],
  fv: ["f", "v"],
  round: ["uw", "uh", "ow", "ao", "w"],
  spread: ["iy", "ih", "ey", "y"],
  open: ["aa", "ae", "ah"],
  mid: ["ax", "er", "eh", "axr"],
  tongue: ["t", "d", "n", "l", "s", "z", "k", "g", "ng", "hh", "th", "dh", "dx", "el", "en"],
  sh: ["sh", "zh", "ch", "jh", "r"],
};
const LOOKUP = new Map<string, number>(
  Object.entries(CLASS).flatMap(([v, names]) =>
    names.map((n) => [n, VISEMES.indexOf(v as Viseme)] as [string, number]),
  ),
);
const c = (v: Viseme) => VISEMES.indexOf(v);
const DIPHTHONGS: Record<string, [number, number]> = {
  ay: [c("open"), c("spread")],
  aw: [c("open"), c("round")],
  oy: [c("round"), c("spread")],
};

export function arpabetVisemes(phone: string): [number, number] {
  const k = LOOKUP.get(phone);
  return k !== undefined ? [k, k] : (DIPHTHONGS[phone] ?? [-1, -1]);
}
