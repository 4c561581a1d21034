/**
 * Streaming resampler to the analysis rate: a windowed-sinc (Blackman) low-pass interpolator that takes
 * chunks of any length at any rate and returns every output sample whose input neighbourhood has arrived.
 * Downsampling lowers the cut-off below the output Nyquist, as ffmpeg's decoder does for the renderer.
 */
const ZERO_CROSSINGS = 8;

export class StreamResampler {
  private readonly step: number; // input samples per output sample
  private readonly cutoff: number; // relative to the input Nyquist
  private readonly half: number; // kernel half-width in input samples
  private buf = new Float32Array(4096);
  private len = 0; // samples in buf
  private bufStart = 0; // input index of buf[0]
  private nextOut = 0; // output sample index
  private readonly table: Float32Array; // kernel sampled on a fine grid
  private static readonly RES = 64;

  constructor(
    readonly inRate: number,
    readonly outRate: number,
  ) {
    this.step = inRate / outRate;
    this.cutoff = Math.min(1, outRate / inRate) * 0.95;
    this.half = Math.ceil(ZERO_CROSSINGS / this.cutoff);
    const n = this.half * StreamResampler.RES;
    this.table = new Float32Array(n + 2);
    for (let i = 0; i <= n + 1; i++) {
      const x = i / StreamResampler.RES;
      if (x > this.half) continue;
      const sx = x * this.cutoff;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * sx) / (Math.PI * sx);
      const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / this.half) + 0.08 * Math.cos((2 * Math.PI * x) / this.half);
      this.table[i] = this.cutoff * sinc * w;
    }
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
    const out: number[] = [];
    for (;;) {
      const pos = this.nextOut * this.step;
      if (Math.floor(pos) + this.half >= end) break;
      out.push(this.sampleAt(pos));
      this.nextOut++;
    }
    this.trim(Math.floor(this.nextOut * this.step) - this.half - 1);
    return Float32Array.from(out);
  }

  private sampleAt(pos: number): number {
    const c = Math.floor(pos);
    const RES = StreamResampler.RES;
    let acc = 0;
    for (let k = c - this.half + 1; k <= c + this.half; k++) {
      const i = k - this.bufStart;
      if (i < 0) continue; // before the stream: silence
      const d = Math.abs(pos - k) * RES;
      const j = Math.floor(d);
      if (j >= this.table.length - 1) continue;
      const w = this.table[j] + (this.table[j + 1] - this.table[j]) * (d - j);
      acc += this.buf[i] * w;
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
