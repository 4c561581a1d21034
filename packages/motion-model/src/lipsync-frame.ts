/**
 * The per-frame steps of the lip-sync analysis (lipsync.ts), shared by the whole-file analysis of the video
 * renderer and the streaming analysis of the live motion service (stream.ts): spectral features of one
 * 10 ms frame, the mouth targets of one frame, the voice gate and the smoothing. Only the speaker-level
 * estimate and the plosive look-ahead differ between the two callers.
 */
import { type FrameSpectrum, jsSpectrum, type SpectrumPlan, wasmSpectrum } from "./frame-spectrum";
import { MEL_BANDS, melFilters } from "./mel";
import { smoothstep } from "./smoothstep";

export const ANALYSIS_RATE = 16_000;
/** Analysis frames per second (10 ms hop). */
export const TRACK_HZ = 100;
export const HOP = ANALYSIS_RATE / TRACK_HZ; // 160
const WIN = 400; // 25 ms
const NFFT = 512; // 32 ms at 16 kHz, 31.25 Hz bins
/** Samples after a frame's centre that its analysis reads. */
export const FRAME_REACH = NFFT / 2;
const BIN = ANALYSIS_RATE / NFFT;
const bin = (hz: number) => Math.round(hz / BIN);

export const clamp01 = (x: number) => (x < 0 ? 0 : Math.min(x, 1));

export interface FrameFeatures {
  /** Loudness over 25 ms, dBFS. */
  db: number;
  /** Spectral shares: 80–550, 550–1300, 1700–3500 Hz of 80–4000 Hz; 4–8 kHz of 80–8000 Hz. */
  low: number;
  mid: number;
  hi: number;
  vhi: number;
  /** Mel band energies, dB (MEL_BANDS; all −120 in near-silence). */
  mel: Float32Array;
}

/** What every frame's analysis reads: the window, the mel filters and the band-share ranges (frame-spectrum.ts). */
const SPECTRUM: SpectrumPlan = {
  n: NFFT,
  window: Float64Array.from({ length: NFFT }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (NFFT - 1))),
  filters: melFilters(NFFT, ANALYSIS_RATE),
  // 80–4000 (speech), 80–550, 550–1300, 1700–3500, 4000–8000 Hz.
  ranges: [
    [80, 4000],
    [80, 550],
    [550, 1300],
    [1700, 3500],
    [4000, 8000],
  ].map(([a, b]) => [bin(a), bin(b)]),
};
/** The wasm arithmetic, one instance for every analyser (made once the module is at hand: useAnalysisKernel). */
let wasm: FrameSpectrum | undefined;

/** A frame analyser, and which arithmetic it runs. */
export type FrameAnalyzer = ((samples: Float32Array, start: number, center: number) => FrameFeatures) & {
  arithmetic: "wasm" | "js";
};

/**
 * Features of the frame centred at sample number `center` (mono 16 kHz). `samples` holds sample numbers
 * `start` on (a stream keeps only the recent ones); any sample not held, or before 0, reads as 0.
 * With `reuse`, every call returns the same object (and mel array), overwritten by the next call: for a caller
 * that copies what it keeps (analysis-ring.ts), so a thread serving many streams allocates nothing per frame.
 * `arithmetic: "js"` takes the JS arithmetic where the wasm would run (the same numbers; for tests).
 */
export function makeFrameAnalyzer(opts: { reuse?: boolean; arithmetic?: "js" } = {}): FrameAnalyzer {
  wasm ??= wasmSpectrum(SPECTRUM);
  const spectrum = (opts.arithmetic !== "js" && wasm) || jsSpectrum(SPECTRUM);
  const { frame, mel: energies, sums } = spectrum;
  const shared: FrameFeatures = { db: -120, low: 0, mid: 0, hi: 0, vhi: 0, mel: new Float32Array(MEL_BANDS) };
  const analyze = (samples: Float32Array, start: number, center: number): FrameFeatures => {
    const f0 = Math.round(center - NFFT / 2);
    const from = f0 - start;
    if (f0 >= 0 && from >= 0 && from + NFFT <= samples.length) frame.set(samples.subarray(from, from + NFFT));
    else
      for (let k = 0; k < NFFT; k++) {
        const j = from + k;
        frame[k] = f0 + k >= 0 && j >= 0 && j < samples.length ? samples[j] : 0;
      }
    const rms = Math.sqrt(spectrum.energy(Math.round(center - WIN / 2) - f0, WIN) / WIN);
    const db = rms > 1e-6 ? 20 * Math.log10(rms) : -120;
    const out: FrameFeatures = opts.reuse
      ? shared
      : { db, low: 0, mid: 0, hi: 0, vhi: 0, mel: new Float32Array(MEL_BANDS) };
    out.db = db;
    if (db < -75) {
      out.low = out.mid = out.hi = out.vhi = 0;
      out.mel.fill(-120);
      return out;
    }
    spectrum.spectrum();
    const speech = sums[0] + 1e-12;
    for (let b = 0; b < MEL_BANDS; b++) out.mel[b] = 10 * Math.log10(energies[b] / NFFT + 1e-12);
    const top = sums[4];
    out.low = sums[1] / speech;
    out.mid = sums[2] / speech;
    out.hi = sums[3] / speech;
    out.vhi = top / (speech + top);
    return out;
  };
  return Object.assign(analyze, { arithmetic: spectrum === wasm ? ("wasm" as const) : ("js" as const) });
}

/** Voice-activity gate with hysteresis and a 60 ms hangover; `step` returns the gate for one frame. */
export function makeGate() {
  let on = false;
  let hang = 0;
  const HANG = 6; // 60 ms hangover below the off-threshold before closing
  return (db: number, ref: number, floor: number, silentFile: boolean): boolean => {
    const rel = db - ref;
    const aboveFloor = db - floor;
    if (silentFile) on = false;
    else if (!on) {
      if (rel > -27 && aboveFloor > 9) {
        on = true;
        hang = HANG;
      }
    } else if (rel < -33 || aboveFloor < 5) {
      if (--hang <= 0) on = false;
    } else hang = HANG;
    return on;
  };
}

/** Analysis frames after the voice gate closes during which a seal (m/b/p) may still be held: 300 ms. */
export const SEAL_AFTER_SPEECH = 30;

/** A frame counts as quiet for plosive closures (near-silence inside speech). */
export const isQuiet = (db: number, ref: number, floor: number) => db - ref < -26 || db - floor < 6;
/** A plosive burst: +12 dB over the last quiet frame, not far below the speaker's level. */
export const isBurst = (db: number, base: number, ref: number) => db - base >= 12 && db - ref > -24;
/**
 * A plosive closure (in analysis frames): a quiet run of `minRun`..`maxRun` (30–250 ms) with the gate open
 * within `speechBefore` (300 ms) before it, ended by a burst within `burstReach` (30 ms). The whole-file
 * analysis (lipsync.ts) and the live one (analysis-ring.ts) both find them so.
 */
export const CLOSURE = { speechBefore: 30, minRun: 3, maxRun: 25, burstReach: 3 } as const;

/** How loud the frame is for the mouth, 0..1, relative to the speaker's level `ref`. */
export const loudness = (db: number, ref: number) => smoothstep(-34, -6, db - ref) ** 0.7;

/** Acoustic mouth targets of one active, non-closure frame (before smoothing): loudness and band shares. */
export function mouthTarget(f: FrameFeatures, ref: number): { open: number; spread: number; round: number } {
  const { mid, hi, low, vhi } = f;
  const loud = loudness(f.db, ref);
  const fric = smoothstep(0.4, 0.75, vhi);
  // Jaw opening: high-F1 vowels (energy 550–1300 Hz) open wide; low-F1 vowels stay narrow.
  const openShape = clamp01((mid - 0.05) / 0.6);
  let open = loud * (0.3 + 0.7 * openShape);
  open *= 1 - 0.7 * fric;
  // F2 high relative to the F1 region → spread (EE); everything low → rounded (OO).
  const r = hi / (mid + hi + 1e-9);
  const spread = Math.max(smoothstep(0.2, 0.5, r) * smoothstep(0.3, 0.6, low) * (1 - fric), 0.5 * fric);
  const round = smoothstep(0.6, 0.85, low) * (1 - smoothstep(0.12, 0.3, r)) * (1 - fric);
  open *= 1 - 0.35 * round;
  // Single precision, as the whole-file analysis has always stored its targets.
  const f32 = Math.fround;
  return {
    open: f32(clamp01(open)),
    spread: f32(clamp01(spread) * Math.max(loud, 0.4)),
    round: f32(clamp01(round) * Math.max(loud, 0.4)),
  };
}

/** What the mouth aims at in one frame, 0..1 each (before smoothing). */
export interface MouthTargets {
  open: number;
  spread: number;
  round: number;
  press: number;
  /** Lower lip under the upper teeth (f, v). */
  tuck: number;
}

export interface SmoothedFrame {
  open: number;
  spread: number;
  round: number;
  press: number;
  tuck: number;
  /** How much of a smiling photo's smile relaxes: 1 while speaking, back to 0 soon after the voice stops. */
  relax: number;
  energy: number;
  emphasis: number;
}

export interface LipSyncOptions {
  /** Attack / release time constants in seconds. */
  attack?: number;
  release?: number;
}

/**
 * Smoothing, one frame at a time: attack ≈ 50 ms, release ≈ 70 ms (faster into a closure); values below a
 * small threshold snap to exactly 0 so silence is perfectly still.
 */
export function makeSmoother(opts: LipSyncOptions = {}) {
  const dt = 1 / TRACK_HZ;
  const aAtk = 1 - Math.exp(-dt / (opts.attack ?? 0.05));
  // 70 ms (was 100): between the syllables of fast speech the mouth closes part way instead of staying open.
  const aRel = 1 - Math.exp(-dt / (opts.release ?? 0.07));
  const aClose = 1 - Math.exp(-dt / 0.025);
  const aShape = 1 - Math.exp(-dt / 0.07);
  const aPress = 1 - Math.exp(-dt / 0.03);
  const aFastUp = 1 - Math.exp(-dt / 0.06);
  const aFastDown = 1 - Math.exp(-dt / 0.2);
  const aSlow = 1 - Math.exp(-dt / 0.9);
  const aEm = 1 - Math.exp(-dt / 0.12);
  const aEnergyUp = 1 - Math.exp(-dt / 0.25);
  const aEnergyDown = 1 - Math.exp(-dt / 0.8);
  const aRelaxUp = 1 - Math.exp(-dt / 0.3);
  const aRelaxDown = 1 - Math.exp(-dt / 0.04);
  const SNAP = 0.015;
  const RELAX_HOLD = 15;
  const RELAX_DRIFT = 0.03;
  const RELEASE_DRIFT = 0.01; // per 10 ms
  let ef = 0;
  let es = 0;
  let em = 0;
  let o = 0;
  let s = 0;
  let ro = 0;
  let p = 0;
  let tu = 0;
  let rx = 0;
  let quiet = 0;
  let e = 0;
  /** `t` = the frame's mouth targets, `closure` a seal (the mouth closes faster), `te` its loudness envelope target (0 when inactive). */
  return (t: MouthTargets, closure: boolean, te: number): SmoothedFrame => {
    const { open: to, spread: tSpread, round: tRound, press: tPress, tuck: tTuck } = t;
    if (to > o) o += (to - o) * aAtk;
    else {
      // Exponential release plus a small linear drift so the tail reaches rest in ~250 ms, not ~450.
      o += (to - o) * (closure ? aClose : aRel);
      o = Math.max(to, o - RELEASE_DRIFT);
    }
    s += (tSpread - s) * aShape;
    if (tSpread < s) s = Math.max(tSpread, s - RELEASE_DRIFT);
    ro += (tRound - ro) * aShape;
    if (tRound < ro) ro = Math.max(tRound, ro - RELEASE_DRIFT);
    p += (tPress - p) * aPress;
    tu += (tTuck - tu) * aPress;
    e += (te - e) * (te > e ? aEnergyUp : aEnergyDown);
    if (o < SNAP && to === 0) o = 0;
    if (s < SNAP && tSpread === 0) s = 0;
    if (ro < SNAP && tRound === 0) ro = 0;
    if (p < SNAP && tPress === 0) p = 0;
    if (tu < SNAP && tTuck === 0) tu = 0;
    if (e < 0.005 && te === 0) e = 0;
    // The smile relaxes over ≈ 0.3 s of speech; it comes back only after 150 ms without voice (not between
    // words), within ≈ 0.1 s, so a pause is still again 0.3 s after the voice stops.
    quiet = te > 0 ? 0 : quiet + 1;
    const tRelax = quiet < RELAX_HOLD ? (te > 0 || rx > 0 ? 1 : 0) : 0;
    rx += (tRelax - rx) * (tRelax > rx ? aRelaxUp : aRelaxDown);
    if (tRelax === 0) rx = Math.max(0, rx - RELAX_DRIFT);
    ef += (te - ef) * (te > ef ? aFastUp : aFastDown);
    es += (te - es) * aSlow;
    const tem = clamp01((ef - es - 0.12) * 2.2);
    em += (tem - em) * aEm;
    if (em < 0.005 && tem === 0) em = 0;
    return { open: o, spread: s, round: ro, press: p, tuck: tu, relax: rx, energy: e, emphasis: em };
  };
}

/** The loudness envelope target that drives energy and emphasis. */
export const energyTarget = (active: boolean, db: number, ref: number) => (active ? smoothstep(-34, -6, db - ref) : 0);
