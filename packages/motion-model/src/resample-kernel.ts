/**
 * The stream resampler's inner loop in WebAssembly (`resample` of ../wasm/analysis-kernel.as.ts): resample.ts's
 * outputs bit for bit, two outputs per SIMD operation. One instance serves every resampler of a thread (calls
 * are synchronous): each rate's tables are placed once, a push's inputs are copied in, its outputs read back.
 */
import { kernelModule, reserve, WASM_PAGE } from "./wasm-kernel";

interface ResampleExports {
  memory: WebAssembly.Memory;
  resample(plan: number, x: number, k0: number, n0: number, count: number, out: number): void;
}

/** A rate's tables, as resample.ts makes them. */
export interface ResampleTables {
  step: number;
  half: number;
  /** Kept phases: 2^bits of them, `width` taps each; else the taps are computed per output. */
  phases: { bits: number; taps: Float64Array } | undefined;
  table: Float32Array;
  slope: Float64Array;
}

export type ResampleKernel = (x: Float32Array, k0: number, n0: number, out: Float32Array) => void;

let k: ResampleExports | undefined;
/** Bytes placed so far: plans and tables grow from the second page, the work area lies beyond them. */
let top = WASM_PAGE;

const place = (bytes: number) => {
  const at = top;
  top += (bytes + 15) & ~15;
  return at;
};

/**
 * The kernel for one rate's tables (undefined where no wasm runs): out[o] = output n0 + o, from inputs x
 * numbered k0 on (every input those outputs read, from c − half + 1 of the first, ≥ 0 or zeros before it).
 */
export function makeResampleKernel(t: ResampleTables): ResampleKernel | undefined {
  const module = kernelModule();
  if (!module) return undefined;
  k ??= new WebAssembly.Instance(module, {}).exports as unknown as ResampleExports;
  const kernel = k;
  const width = 2 * t.half;
  const plan = place(7 * 8);
  const taps = t.phases ? place(t.phases.taps.length * 8) : 0;
  const table = place(t.table.length * 4);
  const slope = place(t.slope.length * 8);
  const scratch = place(2 * width * 8);
  reserve(kernel.memory, top);
  const buf = kernel.memory.buffer;
  new Float64Array(buf, plan, 7).set([t.step, t.half, t.phases ? 2 ** t.phases.bits : 0, taps, table, slope, scratch]);
  if (t.phases) new Float64Array(buf, taps, t.phases.taps.length).set(t.phases.taps);
  new Float32Array(buf, table, t.table.length).set(t.table);
  new Float64Array(buf, slope, t.slope.length).set(t.slope);
  return (x, k0, n0, out) => {
    // The work area: the inputs, then the outputs (after any rate placed since, so placed anew per call).
    const xAt = (top + 15) & ~15;
    const outAt = xAt + ((x.length * 4 + 15) & ~15);
    reserve(kernel.memory, outAt + out.length * 4);
    const mem = kernel.memory.buffer;
    new Float32Array(mem, xAt, x.length).set(x);
    kernel.resample(plan, xAt, k0, n0, out.length, outAt);
    out.set(new Float32Array(mem, outAt, out.length));
  };
}
