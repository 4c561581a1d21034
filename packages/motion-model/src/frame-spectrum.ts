/**
 * What the frame analysis (lipsync-frame.ts) computes of a frame's samples: the loudness window's energy, the
 * power spectrum, mel energies and band sums. In WebAssembly (`spectrum` of ../wasm/analysis-kernel.as.ts) where
 * it runs, else in JS (fft.ts) — the same numbers bit for bit, the wasm about 3× faster. A frame is copied
 * into `frame`, then read; the wasm instance can serve every analyser of a thread (calls are synchronous).
 */
import { fftPlan, makeRealPower, realTwiddles } from "./fft";
import { kernelModule, reserve, WASM_PAGE } from "./wasm-kernel";

interface SpectrumExports {
  memory: WebAssembly.Memory;
  energy(x: number, count: number): number;
  spectrum(plan: number, x: number): void;
}

export interface FrameSpectrum {
  /** The n samples the next calls read. */
  frame: Float32Array | Float64Array;
  /** Σ frame[k]², from ≤ k < from + count, summed in order. */
  energy(from: number, count: number): number;
  /** The power spectrum of `frame` × window, then per band Σ weight·power (`mel`) and per range Σ power (`sums`). */
  spectrum(): void;
  mel: Float64Array;
  sums: Float64Array;
}

/** Frames of n samples (n/2 a power of two ≥ 4), their window, the mel filters and the bin ranges [from, to). */
export interface SpectrumPlan {
  n: number;
  window: Float64Array;
  filters: Array<{ from: number; w: Float64Array }>;
  ranges: Array<[number, number]>;
}

/** The JS arithmetic. */
export function jsSpectrum({ n, window, filters, ranges }: SpectrumPlan): FrameSpectrum {
  const power = makeRealPower(n, window);
  const pw = new Float64Array(n / 2);
  const frame = new Float64Array(n);
  const mel = new Float64Array(filters.length);
  const sums = new Float64Array(ranges.length);
  return {
    frame,
    energy: (from, count) => {
      let sum = 0;
      for (let k = from; k < from + count; k++) sum += frame[k] * frame[k];
      return sum;
    },
    spectrum: () => {
      power(frame, pw);
      for (let b = 0; b < filters.length; b++) {
        const { from, w } = filters[b];
        let e = 0;
        for (let k = 0; k < w.length; k++) e += w[k] * pw[from + k];
        mel[b] = e;
      }
      for (let r = 0; r < ranges.length; r++) {
        let acc = 0;
        for (let k = ranges[r][0]; k < ranges[r][1]; k++) acc += pw[k];
        sums[r] = acc;
      }
    },
    mel,
    sums,
  };
}

/** The wasm arithmetic, or undefined where no wasm runs. */
export function wasmSpectrum({ n, window, filters, ranges }: SpectrumPlan): FrameSpectrum | undefined {
  const module = kernelModule();
  if (!module) return undefined;
  const k = new WebAssembly.Instance(module, {}).exports as unknown as SpectrumExports;
  const h = n >> 1;
  // The plan's fields (their order is the kernel's `field` numbers), each block 16-byte aligned.
  let at = WASM_PAGE + 64;
  const block = (bytes: number) => {
    const p = at;
    at += (bytes + 15) & ~15;
    return p;
  };
  const weights = filters.reduce((s, f) => s + f.w.length, 0);
  const p = {
    h,
    win: block(n * 8),
    rev: block(h * 4),
    wr: block(h * 8),
    wi: block(h * 8),
    rr: block(h * 8),
    ri: block(h * 8),
    zr: block(h * 8),
    zi: block(h * 8),
    pw: block(h * 8),
    bands: filters.length,
    melTable: block(filters.length * 12),
    melOut: block(filters.length * 8),
    sums: ranges.length,
    sumsTable: block(ranges.length * 8),
    sumsOut: block(ranges.length * 8),
  };
  const melWeights = block(weights * 8);
  const x = block(n * 4);
  reserve(k.memory, at);
  const buf = k.memory.buffer;
  const i32 = new Int32Array(buf);
  const f64 = new Float64Array(buf);
  i32.set(Object.values(p), WASM_PAGE / 4);
  f64.set(window, p.win / 8);
  // The bit-reversal as a permutation: the FFT's swaps applied to 0..h−1.
  const rev = Int32Array.from({ length: h }, (_, i) => i);
  const plan = fftPlan(h);
  for (let s = 0; s < plan.swaps.length; s += 2) {
    const [a, b] = [plan.swaps[s], plan.swaps[s + 1]];
    [rev[a], rev[b]] = [rev[b], rev[a]];
  }
  i32.set(rev, p.rev / 4);
  f64.set(plan.wr.subarray(0, h), p.wr / 8);
  f64.set(plan.wi.subarray(0, h), p.wi / 8);
  const tw = realTwiddles(n);
  f64.set(tw.wr, p.rr / 8);
  f64.set(tw.wi, p.ri / 8);
  let w = melWeights;
  filters.forEach((f, b) => {
    i32.set([f.from, f.w.length, w], p.melTable / 4 + 3 * b);
    f64.set(f.w, w / 8);
    w += f.w.length * 8;
  });
  ranges.forEach((r, i) => i32.set(r, p.sumsTable / 4 + 2 * i));
  return {
    frame: new Float32Array(buf, x, n),
    energy: (from, count) => k.energy(x + from * 4, count),
    spectrum: () => k.spectrum(WASM_PAGE, x),
    mel: new Float64Array(buf, p.melOut, filters.length),
    sums: new Float64Array(buf, p.sumsOut, ranges.length),
  };
}
