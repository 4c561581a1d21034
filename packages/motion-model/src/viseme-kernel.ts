/**
 * The viseme classifier's arithmetic in WebAssembly (`dense` of ../wasm/analysis-kernel.as.ts, loaded by
 * wasm-kernel.ts): the network of viseme-net.ts with its numbers — f32 products and sums in the order its
 * JS forward pass takes (which runs where no wasm can) — four rows and four inputs per SIMD pass.
 */
import { kernelModule, reserve, WASM_PAGE } from "./wasm-kernel";
import { makeClassifier, softmax, type DenseLayer } from "./viseme-net";

interface DenseExports {
  memory: WebAssembly.Memory;
  dense(w: number, x: number, y: number, n: number, m: number, relu: number): void;
}

/** The network's weights in one instance's memory; every classifier of these layers shares it (calls are synchronous). */
interface Net {
  k: DenseExports;
  /** Per layer: weights (byte offset), inputs and outputs padded to multiples of 4. */
  layers: { w: number; n: number; m: number }[];
  /** The memory as f32 (it does not grow after loading). */
  f32: Float32Array;
  /** f32 input (padded), f32 activations (two, alternating). */
  input: number;
  acts: [number, number];
}

const pad4 = (n: number) => (n + 3) & ~3;
const nets = new WeakMap<DenseLayer[], Net>();

function load(layers: DenseLayer[], module: WebAssembly.Module): Net {
  const k = new WebAssembly.Instance(module, {}).exports as unknown as DenseExports;
  const widest = Math.max(...layers.map((l) => Math.max(pad4(l.inputs), pad4(l.outputs))));
  let at = WASM_PAGE; // the kernel keeps its own (tiny) static data in the first page
  const placed = layers.map((l) => {
    const [n, m, w] = [pad4(l.inputs), pad4(l.outputs), at];
    at += (n * m + m) * 4;
    return { w, n, m, l };
  });
  const input = at;
  const acts: [number, number] = [input + widest * 4, input + 2 * widest * 4];
  reserve(k.memory, input + 3 * widest * 4);
  const f32 = new Float32Array(k.memory.buffer);
  // Per block of four rows and four inputs, the four rows' weights; then the biases (padding stays 0).
  for (const { w, n, m, l } of placed) {
    for (let o = 0; o < l.outputs; o++)
      for (let i = 0; i < l.inputs; i++)
        f32[w / 4 + (o >> 2) * 4 * n + (i >> 2) * 16 + (o & 3) * 4 + (i & 3)] = l.params[o * l.inputs + i];
    f32.set(l.params.subarray(l.outputs * l.inputs), w / 4 + n * m);
  }
  return { k, f32, layers: placed.map(({ w, n, m }) => ({ w, n, m })), input, acts };
}

/**
 * Forward pass: class probabilities of one input (the returned array is reused by the next call). An input
 * written into the classifier's own `input` array is read where it is (in the kernel's memory: no copy).
 */
export type Classifier = ((input: Float32Array) => Float32Array) & { input: Float32Array };

export function makeVisemeClassifier(layers: DenseLayer[]): Classifier {
  const module = kernelModule();
  if (!module) return Object.assign(makeClassifier(layers), { input: new Float32Array(layers[0].inputs) });
  let net = nets.get(layers);
  if (!net) nets.set(layers, (net = load(layers, module)));
  const { k, f32, input, acts } = net;
  const placed = net.layers;
  const out = new Float32Array(layers[layers.length - 1].outputs);
  const own = f32.subarray(input / 4, input / 4 + layers[0].inputs);
  const classify = (x: Float32Array) => {
    if (x !== own) f32.set(x, input / 4);
    let from = input;
    for (let i = 0; i < placed.length; i++) {
      const { w, n, m } = placed[i];
      const to = acts[i % 2];
      k.dense(w, from, to, n, m, i < placed.length - 1 ? 1 : 0);
      from = to;
    }
    out.set(f32.subarray(from / 4, from / 4 + out.length));
    softmax(out);
    return out;
  };
  return Object.assign(classify, { input: own });
}
