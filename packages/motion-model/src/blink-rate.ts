/**
 * Blinks at the rate a caller sets (`blinksPerMinute`), independent of head motion: one blink per period
 * 60 / rate, each at a seeded random point of the middle 60 % of its period (gaps 0.4–1.6 periods), every
 * 12th or 13th a double blink (counted in the rate). Over any minute the count is within a blink or two of
 * the rate (the default rhythm of life.ts, kept for the default rate, wanders by ±25 %). Blink k depends on
 * the seed and k only, so any moment's blinks are known without scheduling from the start.
 */
import { PERFORMANCE_DEFAULTS } from "@avatar-video/contract";
import { BLINK, blinkSchedule } from "./life";

/** Share of blinks that come as a double blink (as in the default rhythm). */
const DOUBLE_SHARE = 0.08;
/** A double blink's second blink follows after this long (+ up to 0.1 s). */
const DOUBLE_AFTER = 0.32;
const BLINK_SECONDS = BLINK.close + BLINK.hold + BLINK.open;

/** A seeded value in [0, 1) for blink k (a hash, no state: murmur3's finaliser over seed, k and a salt). */
function unit(seed: number, k: number, salt: number): number {
  let h = (seed ^ Math.imul(k + 1, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b)) >>> 0;
  for (let round = 0; round < 2; round++) {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 4294967296;
}

/** Every 12th or 13th blink is a double one (evenly spread, so the count stays on the rate). */
function isDouble(seed: number, k: number): boolean {
  const offset = unit(seed, -1, 0xdb) / DOUBLE_SHARE;
  return Math.floor((k + 1 + offset) * DOUBLE_SHARE) > Math.floor((k + offset) * DOUBLE_SHARE);
}

/** Start of the k-th blink of a rate that took effect at `from`; the period holds `1 + DOUBLE_SHARE` blinks on average. */
function start(from: number, period: number, seed: number, k: number): number {
  return from + (k + 0.2 + 0.6 * unit(seed, k, 0x51)) * period;
}

/** Blink starts in [t0, t1) of a rate `perMinute` (> 0) in effect from `from` on. */
export function evenBlinkStarts(from: number, perMinute: number, seed: number, t0: number, t1: number): number[] {
  const period = (60 * (1 + DOUBLE_SHARE)) / perMinute;
  const out: number[] = [];
  const first = Math.max(0, Math.floor((t0 - from) / period) - 1);
  for (let k = first; ; k++) {
    const s = start(from, period, seed, k);
    if (s >= t1) break;
    if (s >= t0) out.push(s);
    // A double blink only when the next blink leaves room for both.
    const second = s + DOUBLE_AFTER + 0.1 * unit(seed, k, 0xd0);
    const roomy = start(from, period, seed, k + 1) - second > BLINK_SECONDS + 0.1;
    if (roomy && isDouble(seed, k) && second >= t0 && second < t1) out.push(second);
  }
  return out;
}

/**
 * Blink starts over [0, duration) for a video: the default rate keeps the default rhythm (life.ts, the same
 * starts as before this control), 0 means none, any other rate is met evenly.
 */
export function blinkStarts(duration: number, perMinute: number, seed: number): number[] {
  if (perMinute === PERFORMANCE_DEFAULTS.blinksPerMinute) return blinkSchedule(duration, seed);
  if (!(perMinute > 0)) return [];
  return evenBlinkStarts(0, perMinute, seed, 0.8, duration);
}
