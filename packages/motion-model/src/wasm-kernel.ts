/**
 * The live analysis's WebAssembly module (../wasm/analysis-kernel.as.ts): the viseme classifier's dense layers
 * (viseme-kernel.ts), a frame's power spectrum and mel energies (frame-spectrum.ts) and the stream resampler's
 * sums (resample-kernel.ts). It runs for every 10 ms of speech of every live connection and every video.
 *
 * Node and browsers compile the embedded bytes (analysis-kernel-wasm.ts). Workers compile no code at run
 * time: the Worker imports ../wasm/analysis-kernel.wasm as a module and hands it over with
 * `useAnalysisKernel` before the first analysis. Where neither is possible the JS arithmetic runs (the same
 * numbers, slower).
 */
import { ANALYSIS_KERNEL_WASM } from "./analysis-kernel-wasm";

let handed: WebAssembly.Module | undefined;

/** The compiled module for runtimes that cannot compile it themselves (Workers); call before analysing. */
export function useAnalysisKernel(module: WebAssembly.Module): void {
  handed = module;
}

/** The standard constructor (Workers' types declare it abstract: they refuse to compile). */
const compile = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;

/** The module, or undefined where no wasm can run (then the JS arithmetic runs). */
export function kernelModule(): WebAssembly.Module | undefined {
  if (handed) return handed;
  try {
    handed = new compile(Uint8Array.from(atob(ANALYSIS_KERNEL_WASM), (c) => c.charCodeAt(0)));
  } catch {
    // "Wasm code generation disallowed" (Workers) or no WebAssembly: the JS arithmetic.
  }
  return handed;
}

/** Which arithmetic analyses here: "wasm" (the module) or "js" (the classifier and FFT in JS). */
export function analysisKernel(): "wasm" | "js" {
  return kernelModule() ? "wasm" : "js";
}

export const WASM_PAGE = 65536;

/** Grow `memory` so that it holds `end` bytes. */
export function reserve(memory: WebAssembly.Memory, end: number): void {
  if (end > memory.buffer.byteLength) memory.grow(Math.ceil((end - memory.buffer.byteLength) / WASM_PAGE));
}
