/**
 * Figures of scripts/quality-phonetic.ts: how well a class of words is told from another by one number
 * (ROC AUC), and how much of a signal's modulation lies in the syllable band.
 */
import { fft } from "../../packages/motion-model/src/fft";

/** Probability that a random `pos` value exceeds a random `neg` value (ties count half). */
export function auc(pos: number[], neg: number[]): number {
  let s = 0;
  for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / (pos.length * neg.length || 1);
}

export const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / (v.length || 1);

/**
 * Share of the power of `x` (sampled at `hz`) between `lo` and `hi` Hz, of all its power above DC: Welch's
 * estimate over 2.56 s Hann segments overlapping by half, each with its mean removed.
 */
export function bandShare(x: ArrayLike<number>, hz: number, lo: number, hi: number): number {
  const seg = 1 << Math.round(Math.log2(2.56 * hz));
  const re = new Float64Array(seg);
  const im = new Float64Array(seg);
  const power = new Float64Array(seg / 2 + 1);
  for (let s = 0; s + seg <= x.length; s += seg / 2) {
    let m = 0;
    for (let i = 0; i < seg; i++) m += x[s + i];
    m /= seg;
    for (let i = 0; i < seg; i++) {
      re[i] = (x[s + i] - m) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / seg));
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 0; k <= seg / 2; k++) power[k] += re[k] * re[k] + im[k] * im[k];
  }
  let band = 0;
  let all = 0;
  for (let k = 1; k <= seg / 2; k++) {
    const f = (k * hz) / seg;
    all += power[k];
    if (f >= lo && f <= hi) band += power[k];
  }
  return band / (all || 1);
}
