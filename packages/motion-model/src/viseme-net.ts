/**
 * The viseme classifier: a small fully connected network (ReLU hidden layers, softmax out) over the stacked
 * frame values of viseme-input.ts. Weights are trained by scripts/speech/train.ts on espeak-ng speech and
 * stored in viseme-weights.ts as base64 float32 (little-endian), input scaling folded into the first layer.
 */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  /** outputs × inputs weights, then outputs biases. */
  params: Float32Array;
}

export interface StoredLayer {
  inputs: number;
  outputs: number;
  base64: string;
}

export function decodeLayer(s: StoredLayer): DenseLayer {
  const bin = atob(s.base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const params = new Float32Array(bytes.buffer);
  if (params.length !== s.outputs * (s.inputs + 1))
    throw new Error(`viseme layer ${s.inputs}→${s.outputs}: ${params.length} values`);
  return { inputs: s.inputs, outputs: s.outputs, params };
}

export function encodeLayer(l: DenseLayer): StoredLayer {
  const bytes = new Uint8Array(l.params.buffer, l.params.byteOffset, l.params.byteLength);
  let bin = "";
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return { inputs: l.inputs, outputs: l.outputs, base64: btoa(bin) };
}

/**
 * Forward pass: class probabilities of one input. Single precision in a fixed order, the wasm kernel's
 * (viseme-kernel.ts): per output four sums s_l of the products with inputs i ≡ l mod 4, then
 * bias + ((s_0 + s_2) + (s_1 + s_3)), every product and sum rounded to f32.
 */
export function makeClassifier(layers: DenseLayer[]): (input: Float32Array) => Float32Array {
  const acts = layers.map((l) => new Float32Array(l.outputs));
  const f = Math.fround;
  return (input) => {
    let x = input;
    layers.forEach((l, k) => {
      const y = acts[k];
      const { params: p, inputs: n } = l;
      const bias = l.outputs * n;
      for (let o = 0; o < l.outputs; o++) {
        const r = o * n;
        let [s0, s1, s2, s3] = [0, 0, 0, 0];
        let i = 0;
        for (; i + 4 <= n; i += 4) {
          s0 = f(s0 + f(p[r + i] * x[i]));
          s1 = f(s1 + f(p[r + i + 1] * x[i + 1]));
          s2 = f(s2 + f(p[r + i + 2] * x[i + 2]));
          s3 = f(s3 + f(p[r + i + 3] * x[i + 3]));
        }
        if (i < n) s0 = f(s0 + f(p[r + i] * x[i]));
        if (i + 1 < n) s1 = f(s1 + f(p[r + i + 1] * x[i + 1]));
        if (i + 2 < n) s2 = f(s2 + f(p[r + i + 2] * x[i + 2]));
        const v = f(p[bias + o] + f(f(s0 + s2) + f(s1 + s3)));
        y[o] = k < layers.length - 1 && v < 0 ? 0 : v;
      }
      x = y;
    });
    softmax(x);
    return x;
  };
}

export function softmax(x: Float32Array): void {
  let top = -Infinity;
  for (let i = 0; i < x.length; i++) top = Math.max(top, x[i]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] = Math.exp(x[i] - top);
  for (let i = 0; i < x.length; i++) x[i] /= sum;
}
