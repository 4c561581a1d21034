/**
 * Audio → mouth shapes. Input: mono float PCM at 16 kHz, analysed every 10 ms. The shapes come from a viseme
 * classifier (phonetic-mouth.ts: m/b/p seal, f/v tuck, rounded, spread, open, mid vowels, tongue consonants)
 * on the frame's spectral envelope and its context; where it is unsure, from the acoustic cues below:
 *  - loudness (RMS dB over 25 ms) relative to the speaker's own level (a 90th percentile of active frames
 *    in a ±1.5 s window, never far below the file's overall level), gated with hysteresis so soft speech
 *    still opens the mouth and pauses close it;
 *  - spectral shape from band shares of a 512-point power spectrum: 550–1300 Hz (high F1 → jaw open, AA),
 *    1700–3500 Hz (high F2/F3 → spread lips, EE), a low-band-only spectrum (OO → rounded lips; nasal
 *    murmur → nearly closed) and 4–8 kHz (fricatives → teeth together, lips slightly spread);
 *  - plosive closures: a short near-silence inside speech followed by an abrupt burst → lips pressed shut
 *    until the burst.
 * Smoothing: attack ≈ 50 ms, release ≈ 70 ms (faster into a detected closure); values below a small
 * threshold snap to exactly 0 so silence is perfectly still.
 */
import {
  CLOSURE,
  energyTarget,
  HOP,
  isBurst,
  isQuiet,
  makeFrameAnalyzer,
  makeGate,
  makeSmoother,
  SEAL_AFTER_SPEECH,
  TRACK_HZ,
  type FrameFeatures,
  type LipSyncOptions,
} from "./lipsync-frame";
import { makeMouthTargets } from "./phonetic-mouth";
import { frameValues } from "./viseme-input";

export { ANALYSIS_RATE, TRACK_HZ, type LipSyncOptions } from "./lipsync-frame";

export interface MouthShape {
  /** Jaw/lip opening 0..1 (1 = wide open AA). */
  open: number;
  /** Lip spreading 0..1 (EE, teeth showing). */
  spread: number;
  /** Lip rounding 0..1 (OO / W, puckered). */
  round: number;
  /** Lip press 0..1 (M/B/P closure). */
  press: number;
  /** Lower lip under the upper teeth 0..1 (F/V). */
  tuck: number;
}

export interface LipTrack {
  hz: number;
  length: number;
  open: Float32Array;
  spread: Float32Array;
  round: Float32Array;
  press: Float32Array;
  tuck: Float32Array;
  /** How much of a smiling photo's smile relaxes (1 while speaking). */
  relax: Float32Array;
  /** Slow speech energy 0..1 (drives head motion). */
  energy: Float32Array;
  /** Speech emphasis 0..1 (loudness rising above its recent level: stressed syllables, phrase onsets). */
  emphasis: Float32Array;
  /** Voice-activity gate (after hysteresis), 0/1. */
  active: Uint8Array;
  /** Raw per-frame loudness in dBFS (diagnostics). */
  db: Float32Array;
  /** Spectral shares per frame (diagnostics): 80–550, 550–1300, 1700–3500 Hz of 80–4000 Hz; 4–8 kHz of all. */
  low: Float32Array;
  mid: Float32Array;
  hi: Float32Array;
  vhi: Float32Array;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round((s.length - 1) * p)))];
}

/**
 * The speaker's level over a whole file: noise floor (10th percentile), overall reference (90th percentile of
 * frames above the floor) and a local reference per frame (90th percentile over ±1.5 s on a 250 ms grid,
 * never more than 12 dB below the overall one).
 */
export function speakerLevels(db: Float32Array): { floor: number; globalRef: number; ref: Float32Array } {
  const n = db.length;
  const all = Array.from(db);
  const floor = Math.max(-90, Math.min(percentile(all, 0.1), -25));
  const activeVals = all.filter((v) => v > floor + 6 && v > -75);
  const globalRef = activeVals.length ? percentile(activeVals, 0.9) : -120;
  const step = 25;
  const half = 150;
  const grid: number[] = [];
  for (let g = 0; g * step < n + step; g++) {
    const c = g * step;
    const vals: number[] = [];
    for (let j = Math.max(0, c - half); j < Math.min(n, c + half); j++)
      if (db[j] > floor + 6 && db[j] > -75) vals.push(db[j]);
    const local = vals.length >= 10 ? percentile(vals, 0.9) : globalRef;
    grid.push(Math.max(local, globalRef - 12));
  }
  const ref = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const g = i / step;
    const g0 = Math.min(grid.length - 1, Math.floor(g));
    const g1 = Math.min(grid.length - 1, g0 + 1);
    ref[i] = grid[g0] + (grid[g1] - grid[g0]) * (g - g0);
  }
  return { floor, globalRef, ref };
}

/** Analyse mono 16 kHz PCM into mouth-shape tracks at 100 Hz. */
export function analyzeLipSync(pcm: Float32Array, opts: LipSyncOptions = {}): LipTrack {
  const n = Math.max(1, Math.ceil(pcm.length / HOP));
  const db = new Float32Array(n);
  const low = new Float32Array(n); // 80–550 Hz share of 80–4000 Hz: F1 low (EE, OO, nasals)
  const mid = new Float32Array(n); // 550–1300 Hz share: F1 high (AA, AE, AO) → open jaw
  const hi = new Float32Array(n); // 1700–3500 Hz share: F2/F3 high (EE, IH) → spread lips
  const vhi = new Float32Array(n); // 4–8 kHz share of 80–8000 Hz: fricatives, sibilants
  const analyze = makeFrameAnalyzer();
  const feats: FrameFeatures[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const f = (feats[i] = analyze(pcm, 0, i * HOP + HOP / 2));
    db[i] = f.db;
    low[i] = f.low;
    mid[i] = f.mid;
    hi[i] = f.hi;
    vhi[i] = f.vhi;
  }

  const { floor, globalRef, ref } = speakerLevels(db);

  // ---- gate with hysteresis + hangover -----------------------------------------------------------
  const active = new Uint8Array(n);
  const silentFile = globalRef < -60;
  const gate = makeGate();
  for (let i = 0; i < n; i++) active[i] = gate(db[i], ref[i], floor, silentFile) ? 1 : 0;

  // ---- plosive closures: near-silence (30–250 ms) inside speech, then a burst (+12 dB in ≤ 30 ms) --
  const closure = new Uint8Array(n);
  {
    let i = 1;
    while (i < n) {
      const quiet = (j: number) => isQuiet(db[j], ref[j], floor);
      if (quiet(i) && !quiet(i - 1)) {
        // Speech before? (active within the last 300 ms)
        let speechBefore = false;
        for (let j = i - 1; j >= Math.max(0, i - CLOSURE.speechBefore); j--)
          if (active[j]) {
            speechBefore = true;
            break;
          }
        let j = i;
        while (j < n && quiet(j)) j++;
        const len = j - i;
        if (speechBefore && len >= CLOSURE.minRun && len <= CLOSURE.maxRun && j < n) {
          const base = db[j - 1];
          let burst = false;
          for (let k = j; k < Math.min(n, j + CLOSURE.burstReach); k++) if (isBurst(db[k], base, ref[k])) burst = true;
          if (burst) for (let k = i; k < j; k++) closure[k] = 1;
        }
        i = j;
      } else i++;
    }
  }

  // ---- targets and smoothing --------------------------------------------------------------------
  const open = new Float32Array(n);
  const spread = new Float32Array(n);
  const round = new Float32Array(n);
  const press = new Float32Array(n);
  const tuck = new Float32Array(n);
  const relax = new Float32Array(n);
  const energy = new Float32Array(n);
  const emphasis = new Float32Array(n);
  const smooth = makeSmoother(opts);
  const targets = makeMouthTargets();
  const values = feats.map((f, i) => frameValues(f, ref[i]));
  const valueAt = (j: number) => values[j];
  let lastActive = -Infinity;
  for (let i = 0; i < n; i++) {
    if (active[i]) lastActive = i;
    const t = targets(
      valueAt,
      i,
      feats[i],
      ref[i],
      active[i] === 1,
      i - lastActive <= SEAL_AFTER_SPEECH,
      closure[i] === 1,
    );
    const v = smooth(t, t.press > 0.5, energyTarget(active[i] === 1, db[i], ref[i]));
    open[i] = v.open;
    spread[i] = v.spread;
    round[i] = v.round;
    press[i] = v.press;
    tuck[i] = v.tuck;
    relax[i] = v.relax;
    energy[i] = v.energy;
    emphasis[i] = v.emphasis;
  }
  return {
    hz: TRACK_HZ,
    length: n,
    open,
    spread,
    round,
    press,
    tuck,
    relax,
    energy,
    emphasis,
    active,
    db,
    low,
    mid,
    hi,
    vhi,
  };
}

/** Linear interpolation of the track at time t (seconds from the audio start); zero outside. */
export function sampleTrack(
  track: LipTrack,
  t: number,
): MouthShape & { relax: number; energy: number; emphasis: number } {
  const x = t * track.hz - 0.5; // value i describes the window centred at (i + 0.5) hops
  if (!(x > -1) || x >= track.length)
    return { open: 0, spread: 0, round: 0, press: 0, tuck: 0, relax: 0, energy: 0, emphasis: 0 };
  const i0 = Math.floor(x);
  const f = x - i0;
  const at = (arr: Float32Array) => {
    const a = i0 >= 0 ? arr[i0] : 0;
    const b = i0 + 1 < track.length ? arr[i0 + 1] : 0;
    // Exact values at rest: when both neighbours are 0 the result is exactly 0.
    return a === b ? a : a + (b - a) * f;
  };
  return {
    open: at(track.open),
    spread: at(track.spread),
    round: at(track.round),
    press: at(track.press),
    tuck: at(track.tuck),
    relax: at(track.relax),
    energy: at(track.energy),
    emphasis: at(track.emphasis),
  };
}
