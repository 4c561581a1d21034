/**
 * Idle life: blinks, head sway, breathing, speech-driven emphasis. Deterministic from a seed.
 */

/** mulberry32 PRNG. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Blink timing (seconds): close, hold, open. */
export const BLINK = { close: 0.12, hold: 0.04, open: 0.22 };

/**
 * Blink start times over [0, duration): ~19.5 per minute on average (over a minute anywhere from about 15
 * to 24), intervals 1.2–7 s (exponential-ish), occasional double blink. The default rhythm; a rate the caller
 * sets is met evenly (blink-rate.ts).
 */
export function blinkSchedule(duration: number, seed: number, firstAfter = 0.8): number[] {
  const rand = prng(seed ^ 0x9e3779b9);
  const out: number[] = [];
  let t = firstAfter + rand() * 1.6;
  while (t < duration) {
    out.push(t);
    if (rand() < 0.08) {
      // Double blink.
      t += 0.32 + rand() * 0.1;
      if (t < duration) out.push(t);
    }
    // Mean ≈ 3.3 s, with the double blinks ≈ 19.5/min.
    const gap = 1.2 + -Math.log(1 - rand() * 0.999) * 2.3;
    t += Math.min(7, gap);
  }
  return out;
}

/** Eye closure 0..1 at time t given blink start times (sorted). */
export function blinkAmount(starts: number[], t: number): number {
  const total = BLINK.close + BLINK.hold + BLINK.open;
  // Binary search for the last start ≤ t.
  let lo = 0;
  let hi = starts.length - 1;
  let idx = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= t) {
      idx = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (idx < 0) return 0;
  const dt = t - starts[idx];
  if (dt >= total) return 0;
  if (dt < BLINK.close) {
    const x = dt / BLINK.close;
    return x * x * (3 - 2 * x); // lid accelerates, then settles on the lower lid
  }
  if (dt < BLINK.close + BLINK.hold) return 1;
  const x = (dt - BLINK.close - BLINK.hold) / BLINK.open;
  return 1 - x * (2 - x); // ease out of the open
}

export interface HeadMotion {
  yaw: number;
  pitch: number;
  roll: number;
  tx: number;
  ty: number;
  brow: number;
}

/**
 * The caller's say in head motion (contract `Performance`): `head` multiplies the head's turn, tilt and
 * drift (sway, breathing; headGain of the `headMotion` control), `nod` its pitch (sway and nods; nodGain of
 * the same control), `emphasis` the speech-driven nods and brow raises. All 1 = the motion as it was before
 * these controls (the same numbers, bit for bit).
 */
export interface HeadStyle {
  head: number;
  nod: number;
  emphasis: number;
}
export const DEFAULT_HEAD_STYLE: HeadStyle = { head: 1, nod: 1, emphasis: 1 };

/**
 * headMotion 0, 1, 2, 3 → how much of today's movement: still, as before, 2.8× (≥ 2.5× its SD, with room for
 * what a face model reads back: docs/performance.md, "Head motion"), ≈ ±3° yaw.
 */
const HEAD_GAINS = [0, 1, 2.8, 3.4];
/**
 * The same for pitch: a livelier presenter nods more than it sways (≈ ±3° nods at 3). Also what lets a face
 * model read 2 as ≥ 2.5× the pitch of 1: its pitch reading moves with the speaking jaw, in step with the
 * speech-driven nods, which at 1 inflates what it reads (docs/performance.md, "Head motion").
 */
const NOD_GAINS = [0, 1, 4, 5];

/** `gains` at the `headMotion` control 0–3 (linear between the whole steps). */
function gainAt(gains: number[], headMotion: number): number {
  const x = Math.min(3, Math.max(0, headMotion));
  const i = Math.min(2, Math.floor(x));
  return gains[i] + (gains[i + 1] - gains[i]) * (x - i);
}

/** The movement multiplier (yaw, roll, drift) for the `headMotion` control 0–3. */
export const headGain = (headMotion: number): number => gainAt(HEAD_GAINS, headMotion);

/** The pitch multiplier for the `headMotion` control 0–3. */
export const nodGain = (headMotion: number): number => gainAt(NOD_GAINS, headMotion);

/**
 * Head motion: sums of slow sines with mismatched periods (no visible loop), amplitude growing a little
 * with speech energy, breathing (~3.6 s) as a small vertical drift, small nods on speech onsets.
 * `scale` = interocular distance in px (translations are relative to it). `amount` 0..1 scales all motion
 * (used for the transitions from/to the neutral pose); `style` is the caller's (HeadStyle). A function of
 * its arguments only, so any frame can be computed on its own.
 */
export function makeHeadMotion(seed: number, scale: number) {
  const rand = prng(seed ^ 0x85ebca6b);
  const ph = Array.from({ length: 12 }, () => rand() * Math.PI * 2);
  const TAU = Math.PI * 2;
  return (t: number, energy: number, emphasis: number, amount: number, style = DEFAULT_HEAD_STYLE): HeadMotion => {
    const k = 1 + 0.5 * energy;
    const em = emphasis * style.emphasis;
    const g = amount * style.head;
    const gp = amount * style.nod;
    const yaw = (0.6 * Math.sin((TAU * t) / 6.5 + ph[0]) + 0.3 * Math.sin((TAU * t) / 3.7 + ph[1])) * k;
    const pitch = (0.35 * Math.sin((TAU * t) / 5.3 + ph[2]) + 0.2 * Math.sin((TAU * t) / 2.9 + ph[3])) * k - 0.9 * em;
    const roll = (0.35 * Math.sin((TAU * t) / 7.9 + ph[4]) + 0.15 * Math.sin((TAU * t) / 4.3 + ph[5])) * k;
    const breath = Math.sin((TAU * t) / 3.6 + ph[6]);
    const tx = scale * (0.008 * Math.sin((TAU * t) / 5.7 + ph[7]) + 0.004 * Math.sin((TAU * t) / 3.1 + ph[8])) * k;
    const ty = scale * (0.005 * breath + 0.003 * Math.sin((TAU * t) / 4.7 + ph[9])) + scale * 0.012 * em;
    return {
      yaw: yaw * g,
      pitch: pitch * gp,
      roll: roll * g,
      tx: tx * g,
      ty: ty * g,
      brow: Math.min(1, Math.max(0, em * 0.9)) * amount,
    };
  };
}
