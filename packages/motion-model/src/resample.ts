/**
 * Streaming resampler to the analysis rate: a windowed-sinc (Blackman) low-pass interpolator that takes
 * chunks of any length at any rate and returns every output sample whose input neighbourhood has arrived.
 * Downsampling lowers the cut-off below the output Nyquist, as ffmpeg's decoder does for the renderer.
 *
 * It runs for every sample of every live connection (browsers send 44.1 or 48 kHz), so the taps of an
 * output sample are computed from its phase (its position's fraction) once per output, not per tap, and
 * where the phases repeat (a rate ratio with a short binary fraction: 48, 32, 24, 12 or 8 kHz to 16 kHz)
 * each phase's taps are kept. Every weight is the same double as the kernel table's linear interpolation
 * at that tap, summed in the same order: the output is the direct formula's, bit for bit (resample.test.ts).
 * Where wasm runs, the taps' sums run there (resample-kernel.ts), the same numbers.
 */
import { makeResampleKernel, type ResampleKernel, type ResampleTables } from "./resample-kernel";

const ZERO_CROSSINGS = 8;
/** Kernel table entries per input sample. */
const RES = 64;
/** Phases kept at most (a ratio whose fraction needs more binary digits is computed per output sample). */
const MAX_PHASE_BITS = 8;

export class StreamResampler {
  private readonly step: number; // input samples per output sample
  private readonly cutoff: number; // relative to the input Nyquist
  private readonly half: number; // kernel half-width in input samples
  private buf = new Float32Array(4096);
  private len = 0; // samples in buf
  private bufStart = 0; // input index of buf[0]
  private nextOut = 0; // output sample index
  /** The kernel sampled on a fine grid (single precision), and its steps table[j + 1] − table[j] (double). */
  private readonly table: Float32Array;
  private readonly slope: Float64Array;
  /** Taps of a phase (output position's fraction): weights of inputs c − half + 1 … c + half. */
  private readonly taps: Float64Array;
  /** Phases kept (step × 2^bits is whole): the taps of phase p/2^bits at p·2·half; else undefined. */
  private readonly phases: { bits: number; taps: Float64Array } | undefined;
  private readonly kernel: ResampleKernel | undefined;

  /** `arithmetic: "js"` keeps the sums in JS where the wasm would run (the same numbers; for tests). */
  constructor(
    readonly inRate: number,
    readonly outRate: number,
    opts: { arithmetic?: "js" } = {},
  ) {
    this.step = inRate / outRate;
    this.cutoff = Math.min(1, outRate / inRate) * 0.95;
    this.half = Math.ceil(ZERO_CROSSINGS / this.cutoff);
    const n = this.half * RES;
    this.table = new Float32Array(n + 2);
    for (let i = 0; i <= n + 1; i++) {
      const x = i / RES;
      if (x > this.half) continue;
      const sx = x * this.cutoff;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * sx) / (Math.PI * sx);
      const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / this.half) + 0.08 * Math.cos((2 * Math.PI * x) / this.half);
      this.table[i] = this.cutoff * sinc * w;
    }
    this.slope = new Float64Array(n + 1);
    for (let j = 0; j <= n; j++) this.slope[j] = this.table[j + 1] - this.table[j];
    this.taps = new Float64Array(2 * this.half);
    let bits = 0;
    while (bits <= MAX_PHASE_BITS && !Number.isInteger(this.step * 2 ** bits)) bits++;
    // Positions n·step are exact then (far beyond any stream's length), so their fractions are p/2^bits.
    if (bits <= MAX_PHASE_BITS && inRate !== outRate) {
      const count = 2 ** bits;
      const taps = new Float64Array(count * 2 * this.half);
      for (let p = 0; p < count; p++) taps.set(this.phaseTaps(p / count), p * 2 * this.half);
      this.phases = { bits, taps };
    }
    if (opts.arithmetic !== "js" && inRate !== outRate) {
      const { step, half, phases, table, slope } = this;
      this.kernel = kernelFor(`${inRate}/${outRate}`, { step, half, phases, table, slope });
    }
  }

  /** Which arithmetic sums the taps: "wasm" (resample-kernel.ts) or "js". */
  get arithmetic(): "wasm" | "js" {
    return this.kernel ? "wasm" : "js";
  }

  /** Input samples the resampler still needs beyond an output sample's position (its delay). */
  get lookaheadSeconds(): number {
    return this.inRate === this.outRate ? 0 : this.half / this.inRate;
  }

  /** Feed input samples; returns the output samples that are now complete. */
  push(input: Float32Array): Float32Array {
    if (this.inRate === this.outRate) return input;
    this.append(input);
    const end = this.bufStart + this.len; // first input index not yet received
    // Outputs whose last input has arrived: floor(n·step) + half < end.
    let last = this.nextOut;
    while (Math.floor(last * this.step) + this.half < end) last++;
    const out = new Float32Array(last - this.nextOut);
    if (this.kernel) this.kernelPush(this.kernel, out);
    else for (let o = 0; o < out.length; o++, this.nextOut++) out[o] = this.sampleAt(this.nextOut * this.step);
    this.trim(Math.floor(this.nextOut * this.step) - this.half - 1);
    return out;
  }

  /** `out`'s samples by the kernel (the first ones of a rate without kept phases by the formula, in JS). */
  private kernelPush(kernel: ResampleKernel, out: Float32Array): void {
    let o = 0;
    for (; o < out.length && !this.phases && this.nextOut * this.step < 2 * this.half; o++, this.nextOut++)
      out[o] = this.direct(this.nextOut * this.step);
    if (o === out.length) return;
    // From the first tap of the first output on; inputs before the stream are zeros.
    const from = Math.floor(this.nextOut * this.step) - this.half + 1;
    let x = this.buf.subarray(from - this.bufStart, this.len);
    if (from < this.bufStart) {
      x = new Float32Array(this.bufStart - from + this.len);
      x.set(this.buf.subarray(0, this.len), this.bufStart - from);
    }
    kernel(x, from, this.nextOut, out.subarray(o));
    this.nextOut += out.length - o;
  }

  /**
   * The weights of inputs c − half + 1 … c + half for an output at c + frac (0 ≤ frac < 1): at input k the
   * kernel table read at d = |c + frac − k|·RES, linearly between its two nearest entries. For k ≤ c,
   * d = (frac + c − k)·RES, so floor(d) = floor(frac·RES) + (c − k)·RES with the fraction frac·RES − floor(frac·RES);
   * for k > c, d = (k − c − frac)·RES: floor(d) = (k − c)·RES − ceil(frac·RES), fraction ceil(frac·RES) − frac·RES.
   * Each product and difference here is exact once pos ≥ 2·half (direct), so every weight equals the formula's.
   */
  private phaseTaps(frac: number, into = this.taps): Float64Array {
    const { table, slope, half } = this;
    const f = frac * RES;
    const lo = Math.floor(f);
    const hi = Math.ceil(f);
    const dl = f - lo;
    const dh = hi - f;
    for (let t = 0; t < 2 * half; t++) {
      const m = t - half + 1; // k − c
      const j = m <= 0 ? lo - m * RES : m * RES - hi;
      into[t] = table[j] + slope[j] * (m <= 0 ? dl : dh);
    }
    return into;
  }

  private sampleAt(pos: number): number {
    const c = Math.floor(pos);
    const frac = pos - c;
    const width = 2 * this.half;
    let taps: Float64Array;
    let at = 0;
    if (this.phases) {
      taps = this.phases.taps;
      at = ((frac * 2 ** this.phases.bits) | 0) * width; // a whole number (an integer index keeps the loop fast)
    } else if (pos < 2 * this.half) return this.direct(pos);
    else taps = this.phaseTaps(frac);
    const buf = this.buf;
    const first = c - this.half + 1 - this.bufStart; // buf index of the first tap
    let acc = 0;
    // Inputs before the stream are silence (skipped, as zero terms would add nothing).
    for (let t = first < 0 ? -first : 0; t < width; t++) acc += buf[first + t] * taps[at + t];
    return acc;
  }

  /**
   * The formula itself, for the first outputs of a ratio without kept phases: while pos < 2·half, k − pos
   * (k up to pos + half) may be rounded, and the weights must be the ones it gives.
   */
  private direct(pos: number): number {
    const c = Math.floor(pos);
    let acc = 0;
    for (let k = c - this.half + 1; k <= c + this.half; k++) {
      const i = k - this.bufStart;
      if (i < 0) continue; // before the stream: silence
      const d = Math.abs(pos - k) * RES;
      const j = Math.floor(d);
      acc += this.buf[i] * (this.table[j] + (this.table[j + 1] - this.table[j]) * (d - j));
    }
    return acc;
  }

  private append(input: Float32Array): void {
    if (this.len + input.length > this.buf.length) {
      const next = new Float32Array(Math.max(this.buf.length * 2, this.len + input.length));
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    this.buf.set(input, this.len);
    this.len += input.length;
  }

  /** Drop input before `keepFrom` (no output needs it any more). */
  private trim(keepFrom: number): void {
    const drop = Math.min(this.len, keepFrom - this.bufStart);
    if (drop <= 0) return;
    this.buf.copyWithin(0, drop, this.len);
    this.len -= drop;
    this.bufStart += drop;
  }
}

/** One kernel per rate pair (its tables placed once per thread). */
const kernels = new Map<string, ResampleKernel | undefined>(); // undefined: no wasm yet (tried again)

function kernelFor(key: string, tables: ResampleTables): ResampleKernel | undefined {
  let kernel = kernels.get(key);
  if (!kernel) kernels.set(key, (kernel = makeResampleKernel(tables)));
  return kernel;
}
