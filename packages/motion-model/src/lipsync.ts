/**
 * Audio → mouth shapes, from the audio itself (no phoneme recogniser).
 *
 * Input: mono float PCM at 16 kHz. Analysis every 10 ms:
 *  - loudness (RMS dB over 25 ms) relative to the speaker's own level (a 90th percentile of active frames
 *    in a ±1.5 s window, never far below the file's overall level), gated with hysteresis so soft speech
 *    still opens the mouth and pauses close it;
 *  - spectral shape from band shares of a 512-point power spectrum: 550–1300 Hz (high F1 → jaw open, AA),
 *    1700–3500 Hz (high F2/F3 → spread lips, EE), a low-band-only spectrum (OO → rounded lips; nasal
 *    murmur → nearly closed) and 4–8 kHz (fricatives → teeth together, lips slightly spread);
 *  - plosive closures: a short near-silence inside speech followed by an abrupt burst → lips pressed shut
 *    until the burst.
 * Smoothing: attack ≈ 50 ms, release ≈ 100 ms (faster into a detected closure); values below a small
 * threshold snap to exactly 0 so silence is perfectly still.
 */
import { smoothstep } from "./smoothstep";

export const ANALYSIS_RATE = 16_000;
/** Analysis frames per second (10 ms hop). */
export const TRACK_HZ = 100;
const HOP = ANALYSIS_RATE / TRACK_HZ; // 160
const WIN = 400; // 25 ms

export interface MouthShape {
  /** Jaw/lip opening 0..1 (1 = wide open AA). */
  open: number;
  /** Lip spreading 0..1 (EE, teeth showing). */
  spread: number;
  /** Lip rounding 0..1 (OO / W, puckered). */
  round: number;
  /** Lip press 0..1 (M/B/P closure). */
  press: number;
}

export interface LipTrack {
  hz: number;
  length: number;
  open: Float32Array;
  spread: Float32Array;
  round: Float32Array;
  press: Float32Array;
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

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round((s.length - 1) * p)))];
}

/** In-place iterative radix-2 complex FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    const h = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let j = 0; j < h; j++) {
        const a = i + j;
        const b = a + h;
        const xr = re[b] * cr - im[b] * ci;
        const xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

export interface LipSyncOptions {
  /** Attack / release time constants in seconds. */
  attack?: number;
  release?: number;
}

const NFFT = 512; // 32 ms at 16 kHz, 31.25 Hz bins
const BIN = ANALYSIS_RATE / NFFT;
const bin = (hz: number) => Math.round(hz / BIN);

/** Analyse mono 16 kHz PCM into mouth-shape tracks at 100 Hz. */
export function analyzeLipSync(pcm: Float32Array, opts: LipSyncOptions = {}): LipTrack {
  const n = Math.max(1, Math.ceil(pcm.length / HOP));
  const db = new Float32Array(n);
  const low = new Float32Array(n); // 80–550 Hz share of 80–4000 Hz: F1 low (EE, OO, nasals)
  const mid = new Float32Array(n); // 550–1300 Hz share: F1 high (AA, AE, AO) → open jaw
  const hi = new Float32Array(n); // 1700–3500 Hz share: F2/F3 high (EE, IH) → spread lips
  const vhi = new Float32Array(n); // 4–8 kHz share of 80–8000 Hz: fricatives, sibilants
  const hamming = new Float64Array(NFFT);
  for (let i = 0; i < NFFT; i++) hamming[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (NFFT - 1));
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  const pw = new Float64Array(NFFT / 2);
  const bandSum = (a: number, b: number) => {
    let acc = 0;
    for (let k = bin(a); k < bin(b); k++) acc += pw[k];
    return acc;
  };

  for (let i = 0; i < n; i++) {
    const center = i * HOP + HOP / 2;
    // Loudness over 25 ms.
    let sum = 0;
    const s0 = Math.round(center - WIN / 2);
    for (let k = 0; k < WIN; k++) {
      const idx = s0 + k;
      const x = idx >= 0 && idx < pcm.length ? pcm[idx] : 0;
      sum += x * x;
    }
    const rms = Math.sqrt(sum / WIN);
    db[i] = rms > 1e-6 ? 20 * Math.log10(rms) : -120;
    if (db[i] < -75) continue;
    // Spectral shares over 32 ms.
    const f0 = Math.round(center - NFFT / 2);
    for (let k = 0; k < NFFT; k++) {
      const idx = f0 + k;
      re[k] = (idx >= 0 && idx < pcm.length ? pcm[idx] : 0) * hamming[k];
      im[k] = 0;
    }
    fft(re, im);
    for (let k = 0; k < NFFT / 2; k++) pw[k] = re[k] * re[k] + im[k] * im[k];
    const speech = bandSum(80, 4000) + 1e-12;
    low[i] = bandSum(80, 550) / speech;
    mid[i] = bandSum(550, 1300) / speech;
    hi[i] = bandSum(1700, 3500) / speech;
    vhi[i] = bandSum(4000, 8000) / (speech + bandSum(4000, 8000));
  }

  // ---- speaker level ------------------------------------------------------------------------------
  const all = Array.from(db);
  const floor = Math.max(-90, Math.min(percentile(all, 0.1), -25));
  const activeVals = all.filter((v) => v > floor + 6 && v > -75);
  const globalRef = activeVals.length ? percentile(activeVals, 0.9) : -120;
  // Local reference on a 250 ms grid, 3 s windows.
  const step = 25;
  const half = 150;
  const grid: number[] = [];
  for (let g = 0; g * step < n + step; g++) {
    const c = g * step;
    const vals: number[] = [];
    for (let j = Math.max(0, c - half); j < Math.min(n, c + half); j++) if (db[j] > floor + 6 && db[j] > -75) vals.push(db[j]);
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

  // ---- gate with hysteresis + hangover -----------------------------------------------------------
  const active = new Uint8Array(n);
  const silentFile = globalRef < -60;
  let on = false;
  let hang = 0;
  const HANG = 6; // 60 ms hangover below the off-threshold before closing
  for (let i = 0; i < n; i++) {
    const rel = db[i] - ref[i];
    const aboveFloor = db[i] - floor;
    if (silentFile) on = false;
    else if (!on) {
      if (rel > -27 && aboveFloor > 9) {
        on = true;
        hang = HANG;
      }
    } else if (rel < -33 || aboveFloor < 5) {
      if (--hang <= 0) on = false;
    } else hang = HANG;
    active[i] = on ? 1 : 0;
  }

  // ---- plosive closures: near-silence (30–250 ms) inside speech, then a burst (+12 dB in ≤ 30 ms) --
  const closure = new Uint8Array(n);
  {
    let i = 1;
    while (i < n) {
      const quiet = (j: number) => db[j] - ref[j] < -26 || db[j] - floor < 6;
      if (quiet(i) && !quiet(i - 1)) {
        // Speech before? (active within the last 300 ms)
        let speechBefore = false;
        for (let j = i - 1; j >= Math.max(0, i - 30); j--) if (active[j]) { speechBefore = true; break; }
        let j = i;
        while (j < n && quiet(j)) j++;
        const len = j - i;
        if (speechBefore && len >= 3 && len <= 25 && j < n) {
          const base = db[j - 1];
          let burst = false;
          for (let k = j; k < Math.min(n, j + 3); k++) if (db[k] - base >= 12 && db[k] - ref[k] > -24) burst = true;
          if (burst) for (let k = i; k < j; k++) closure[k] = 1;
        }
        i = j;
      } else i++;
    }
  }

  // ---- targets -----------------------------------------------------------------------------------
  const tOpen = new Float32Array(n);
  const tSpread = new Float32Array(n);
  const tRound = new Float32Array(n);
  const tPress = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (closure[i]) {
      tPress[i] = 1;
      continue;
    }
    if (!active[i]) continue;
    const rel = db[i] - ref[i];
    const loud = Math.pow(smoothstep(-34, -6, rel), 0.7);
    const fric = smoothstep(0.4, 0.75, vhi[i]);
    // Jaw opening: high-F1 vowels (energy 550–1300 Hz) open wide; low-F1 vowels stay narrow.
    const openShape = clamp01((mid[i] - 0.05) / 0.6);
    let open = loud * (0.25 + 0.75 * openShape);
    open *= 1 - 0.7 * fric;
    // F2 high relative to the F1 region → spread (EE); everything low → rounded (OO).
    const r = hi[i] / (mid[i] + hi[i] + 1e-9);
    const spread = Math.max(smoothstep(0.2, 0.5, r) * smoothstep(0.3, 0.6, low[i]) * (1 - fric), 0.5 * fric);
    const round = smoothstep(0.6, 0.85, low[i]) * (1 - smoothstep(0.12, 0.3, r)) * (1 - fric);
    open *= 1 - 0.35 * round;
    tOpen[i] = clamp01(open);
    tSpread[i] = clamp01(spread) * Math.max(loud, 0.4);
    tRound[i] = clamp01(round) * Math.max(loud, 0.4);
  }

  // ---- smoothing ---------------------------------------------------------------------------------
  const dt = 1 / TRACK_HZ;
  const aAtk = 1 - Math.exp(-dt / (opts.attack ?? 0.05));
  const aRel = 1 - Math.exp(-dt / (opts.release ?? 0.1));
  const aClose = 1 - Math.exp(-dt / 0.025);
  const aShape = 1 - Math.exp(-dt / 0.07);
  const aPress = 1 - Math.exp(-dt / 0.03);
  const open = new Float32Array(n);
  const spread = new Float32Array(n);
  const round = new Float32Array(n);
  const press = new Float32Array(n);
  const energy = new Float32Array(n);
  const emphasis = new Float32Array(n);
  const aFastUp = 1 - Math.exp(-dt / 0.06);
  const aFastDown = 1 - Math.exp(-dt / 0.2);
  const aSlow = 1 - Math.exp(-dt / 0.9);
  let ef = 0;
  let es = 0;
  let em = 0;
  const aEm = 1 - Math.exp(-dt / 0.12);
  const aEnergyUp = 1 - Math.exp(-dt / 0.25);
  const aEnergyDown = 1 - Math.exp(-dt / 0.8);
  let o = 0;
  let s = 0;
  let ro = 0;
  let p = 0;
  let e = 0;
  const SNAP = 0.015;
  const RELEASE_DRIFT = 0.01; // per 10 ms
  for (let i = 0; i < n; i++) {
    const to = tOpen[i];
    if (to > o) o += (to - o) * aAtk;
    else {
      // Exponential release plus a small linear drift so the tail reaches rest in ~250 ms, not ~450.
      o += (to - o) * (closure[i] ? aClose : aRel);
      o = Math.max(to, o - RELEASE_DRIFT);
    }
    s += (tSpread[i] - s) * aShape;
    if (tSpread[i] < s) s = Math.max(tSpread[i], s - RELEASE_DRIFT);
    ro += (tRound[i] - ro) * aShape;
    if (tRound[i] < ro) ro = Math.max(tRound[i], ro - RELEASE_DRIFT);
    p += (tPress[i] - p) * aPress;
    const te = active[i] ? smoothstep(-34, -6, db[i] - ref[i]) : 0;
    e += (te - e) * (te > e ? aEnergyUp : aEnergyDown);
    if (o < SNAP && to === 0) o = 0;
    if (s < SNAP && tSpread[i] === 0) s = 0;
    if (ro < SNAP && tRound[i] === 0) ro = 0;
    if (p < SNAP && tPress[i] === 0) p = 0;
    if (e < 0.005 && te === 0) e = 0;
    ef += (te - ef) * (te > ef ? aFastUp : aFastDown);
    es += (te - es) * aSlow;
    const tem = clamp01((ef - es - 0.12) * 2.2);
    em += (tem - em) * aEm;
    if (em < 0.005 && tem === 0) em = 0;
    emphasis[i] = em;
    open[i] = o;
    spread[i] = s;
    round[i] = ro;
    press[i] = p;
    energy[i] = e;
  }
  return { hz: TRACK_HZ, length: n, open, spread, round, press, energy, emphasis, active, db, low, mid, hi, vhi };
}

/** Linear interpolation of the track at time t (seconds from the audio start); zero outside. */
export function sampleTrack(track: LipTrack, t: number): MouthShape & { energy: number; emphasis: number } {
  const x = t * track.hz - 0.5; // value i describes the window centred at (i + 0.5) hops
  if (!(x > -1) || x >= track.length) return { open: 0, spread: 0, round: 0, press: 0, energy: 0, emphasis: 0 };
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
    energy: at(track.energy),
    emphasis: at(track.emphasis),
  };
}
