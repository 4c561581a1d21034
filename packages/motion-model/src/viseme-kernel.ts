/**
 * The viseme classifier's arithmetic in WebAssembly (`dense` of ../wasm/viseme-dense.as.ts, loaded by
 * wasm-kernel.ts): the network of viseme-net.ts with its numbers — every product exact, the sums in f64, the
 * activations rounded to f32 — about 4× faster than its JS forward pass, which runs where no wasm can.
 */
import { kernelModule, reserve, WASM_PAGE } from "./wasm-kernel";
import { makeClassifier, softmax, type DenseLayer } from "./viseme-net";

interface DenseExports {
  memory: WebAssembly.Memory;
  dense(w: number, x: number, wide: number, y: number, n: number, m: number, relu: number): void;
}

/** The network's weights in one instance's memory; every classifier of these layers shares it (calls are synchronous). */
interface Net {
  k: DenseExports;
  layers: { w: number; n: number; m: number }[];
  /** The memory as f32 (it does not grow after loading). */
  f32: Float32Array;
  /** f32 input (padded), f32 activations (two, alternating), the f64 widened input. */
  input: number;
  acts: [number, number];
  wide: number;
}

const pad4 = (n: number) => (n + 3) & ~3;
const nets = new WeakMap<DenseLayer[], Net>();

function load(layers: DenseLayer[], module: WebAssembly.Module): Net {
  const k = new WebAssembly.Instance(module, {}).exports as unknown as DenseExports;
  const widest = Math.max(...layers.map((l) => Math.max(pad4(l.inputs), l.outputs)));
  let at = WASM_PAGE; // the kernel keeps its own (tiny) static data in the first page
  const placed = layers.map((l) => {
    const n = pad4(l.inputs);
    const w = at;
    at += (n * l.outputs + l.outputs) * 8;
    return { w, n, m: l.outputs, l };
  });
  const input = at;
  const acts: [number, number] = [input + widest * 4, input + 2 * widest * 4];
  const wide = input + 3 * widest * 4;
  const end = wide + widest * 8;
  reserve(k.memory, end);
  const f64 = new Float64Array(k.memory.buffer);
  for (const { w, n, m, l } of placed) {
    for (let o = 0; o < m; o++) for (let i = 0; i < l.inputs; i++) f64[w / 8 + o * n + i] = l.params[o * l.inputs + i];
    for (let o = 0; o < m; o++) f64[w / 8 + n * m + o] = l.params[m * l.inputs + o];
  }
  const f32 = new Float32Array(k.memory.buffer);
  return { k, f32, layers: placed.map(({ w, n, m }) => ({ w, n, m })), input, acts, wide };
}

/** Forward pass: class probabilities of one input (the returned array is reused by the next call). */
export function makeVisemeClassifier(layers: DenseLayer[]): (input: Float32Array) => Float32Array {
  const module = kernelModule();
  if (!module) return makeClassifier(layers);
  let net = nets.get(layers);
  if (!net) nets.set(layers, (net = load(layers, module)));
  const { k, f32, input, acts, wide } = net;
  const placed = net.layers;
  const out = new Float32Array(placed[placed.length - 1].m);
  return (x) => {
    f32.set(x, input / 4);
    let from = input;
    for (let i = 0; i < placed.length; i++) {
      const { w, n, m } = placed[i];
      const to = acts[i % 2];
      k.dense(w, from, wide, to, n, m, i < placed.length - 1 ? 1 : 0);
      from = to;
    }
    out.set(f32.subarray(from / 4, from / 4 + out.length));
    softmax(out);
    return out;
  };
}
