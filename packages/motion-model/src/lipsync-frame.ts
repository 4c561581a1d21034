/**
 * The per-frame steps of the lip-sync analysis (lipsync.ts), shared by the whole-file analysis of the video
 * renderer and the streaming analysis of the live motion service (stream.ts): spectral features of one
 * 10 ms frame, the mouth targets of one frame, the voice gate and the smoothing. Only the speaker-level
 * estimate and the plosive look-ahead differ between the two callers.
 */
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

/**
 * What an FFT of size n reuses from call to call: the bit-reversal swaps, and per stage the twiddle factors
 * exactly as the butterfly recurrence (w ← w·e^(−2πi/len), from 1) produces them, so the transform is the
 * textbook loop's bit for bit without recomputing them for every frame. Stage of half-size h: entries h..2h−1.
 */
interface FftPlan {
  swaps: Uint16Array;
  wr: Float64Array;
  wi: Float64Array;
}
const plans = new Map<number, FftPlan>();

function fftPlan(n: number): FftPlan {
  let plan = plans.get(n);
  if (plan) return plan;
  const swaps: number[] = [];
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swaps.push(i, j);
  }
  const wr = new Float64Array(Math.max(n, 1));
  const wi = new Float64Array(Math.max(n, 1));
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const [sr, si] = [Math.cos(ang), Math.sin(ang)];
    const h = len >> 1;
    let cr = 1;
    let ci = 0;
    for (let j = 0; j < h; j++) {
      wr[h + j] = cr;
      wi[h + j] = ci;
      const t = cr * sr - ci * si;
      ci = cr * si + ci * sr;
      cr = t;
    }
  }
  plan = { swaps: Uint16Array.from(swaps), wr, wi };
  plans.set(n, plan);
  return plan;
}

/** In-place iterative radix-2 complex FFT (n ≤ 65 536). */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  const { swaps, wr, wi } = fftPlan(n);
  for (let s = 0; s < swaps.length; s += 2) {
    const i = swaps[s];
    const j = swaps[s + 1];
    let t = re[i];
    re[i] = re[j];
    re[j] = t;
    t = im[i];
    im[i] = im[j];
    im[j] = t;
  }
  for (let h = 1; h < n; h <<= 1) {
    const len = h << 1;
    // Twiddle 1 first: x·1 − y·0 is x (up to the sign of a zero, which no power or magnitude sees).
    for (let a = 0; a < n; a += len) {
      const b = a + h;
      const xr = re[b];
      const xi = im[b];
      re[b] = re[a] - xr;
      im[b] = im[a] - xi;
      re[a] += xr;
      im[a] += xi;
    }
    for (let j = 1; j < h; j++) {
      const cr = wr[h + j];
      const ci = wi[h + j];
      for (let a = j; a < n; a += len) {
        const b = a + h;
        const xr = re[b] * cr - im[b] * ci;
        const xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/**
 * The power spectrum |X[k]|², k < n/2, of n real samples times `window` (all 1 if none), by one complex FFT of
 * n/2 points (the even samples as real parts, the odd ones as imaginary), split into the two half-size spectra
 * and joined by the twiddles: half the butterflies of a complex FFT of the n samples, the same values to
 * rounding (≈ 1e-16 relative).
 */
export function makeRealPower(
  n: number,
  window: Float64Array = new Float64Array(n).fill(1),
): (x: Float64Array, pw: Float64Array) => void {
  const h = n >> 1;
  const zr = new Float64Array(h);
  const zi = new Float64Array(h);
  const wr = Float64Array.from({ length: h }, (_, k) => Math.cos((2 * Math.PI * k) / n));
  const wi = Float64Array.from({ length: h }, (_, k) => -Math.sin((2 * Math.PI * k) / n));
  return (x, pw) => {
    for (let k = 0; k < h; k++) {
      zr[k] = x[2 * k] * window[2 * k];
      zi[k] = x[2 * k + 1] * window[2 * k + 1];
    }
    fft(zr, zi);
    for (let k = 0; k < h; k++) {
      const m = k === 0 ? 0 : h - k;
      const er = (zr[k] + zr[m]) * 0.5; // the even samples' spectrum
      const ei = (zi[k] - zi[m]) * 0.5;
      const or = (zi[k] + zi[m]) * 0.5; // the odd samples'
      const oi = (zr[m] - zr[k]) * 0.5;
      const xr = er + wr[k] * or - wi[k] * oi;
      const xi = ei + wr[k] * oi + wi[k] * or;
      pw[k] = xr * xr + xi * xi;
    }
  };
}

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

/**
 * Features of the frame centred at sample number `center` (mono 16 kHz). `samples` holds sample numbers
 * `start` on (a stream keeps only the recent ones); any sample not held, or before 0, reads as 0.
 * With `reuse`, every call returns the same object (and mel array), overwritten by the next call: for a caller
 * that copies what it keeps (stream.ts), so a thread serving many streams allocates nothing per frame.
 */
export function makeFrameAnalyzer(
  opts: { reuse?: boolean } = {},
): (samples: Float32Array, start: number, center: number) => FrameFeatures {
  const hamming = new Float64Array(NFFT);
  for (let i = 0; i < NFFT; i++) hamming[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (NFFT - 1));
  const power = makeRealPower(NFFT, hamming);
  const pw = new Float64Array(NFFT / 2);
  const frame = new Float64Array(NFFT); // the samples the FFT reads (the loudness window lies inside)
  const filters = melFilters(NFFT, ANALYSIS_RATE);
  const bandSum = (from: number, to: number) => {
    let acc = 0;
    for (let k = from; k < to; k++) acc += pw[k];
    return acc;
  };
  const [b80, b550, b1300, b1700, b3500, b4000, b8000] = [80, 550, 1300, 1700, 3500, 4000, 8000].map(bin);
  const shared: FrameFeatures = { db: -120, low: 0, mid: 0, hi: 0, vhi: 0, mel: new Float32Array(MEL_BANDS) };
  return (samples, start, center) => {
    const f0 = Math.round(center - NFFT / 2);
    const from = f0 - start;
    if (f0 >= 0 && from >= 0 && from + NFFT <= samples.length) frame.set(samples.subarray(from, from + NFFT));
    else
      for (let k = 0; k < NFFT; k++) {
        const j = from + k;
        frame[k] = f0 + k >= 0 && j >= 0 && j < samples.length ? samples[j] : 0;
      }
    let sum = 0;
    const s0 = Math.round(center - WIN / 2) - f0;
    for (let k = 0; k < WIN; k++) {
      const x = frame[s0 + k];
      sum += x * x;
    }
    const rms = Math.sqrt(sum / WIN);
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
    power(frame, pw);
    const speech = bandSum(b80, b4000) + 1e-12;
    const mel = out.mel;
    for (let b = 0; b < MEL_BANDS; b++) {
      const { from, w } = filters[b];
      let e = 0;
      for (let k = 0; k < w.length; k++) e += w[k] * pw[from + k];
      mel[b] = 10 * Math.log10(e / NFFT + 1e-12);
    }
    const top = bandSum(b4000, b8000);
    out.low = bandSum(b80, b550) / speech;
    out.mid = bandSum(b550, b1300) / speech;
    out.hi = bandSum(b1700, b3500) / speech;
    out.vhi = top / (speech + top);
    return out;
  };
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
