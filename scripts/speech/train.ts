/**
 * Trains the viseme classifier (packages/motion-model/src/viseme-net.ts) on the corpus of corpus.ts and
 * writes its weights to packages/motion-model/src/viseme-weights.ts.
 *
 *   tsx scripts/speech/train.ts [--corpus .local/speech[,more corpora]] [--epochs 12] [--hidden 64,48] [--seed 1]
 *     [--out file]   (default: the package's viseme-weights.ts)
 *     [--init weights.ts --lr 5e-4]   (go on from stored weights, e.g. to add new speech without starting over;
 *       wider hidden layers than the stored ones start as the stored network)
 *     [--sample 0.5]   (each epoch a fresh random share of the training frames; neighbours are much alike)
 *     [--numpy]   (the epochs run in train.py with NumPy, batches of 256 through BLAS: several times faster)
 *     [--boost mbp=1.5,fv=1.3]   (a class's loss weight × that: a missed m/b/p costs more than a false one)
 *     [--voices "flite slt=2,real=0.8"]   (the loss weight of utterances whose voice begins so × that)
 *
 * Frames become classifier values through the product's own code (viseme-input.ts). Utterances of three
 * voice variants are held out: their frame accuracy, per-class recall and confusions
 * are printed after each epoch. Cross-entropy weighted by 1/√(class share), Adam, mini-batches of 128.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MEL_BANDS } from "../../packages/motion-model/src/mel";
import { CONTEXT, FRAME_VALUES, frameValues, INPUTS, SILENT_FRAME } from "../../packages/motion-model/src/viseme-input";
import {
  decodeLayer,
  encodeLayer,
  softmax,
  type DenseLayer,
  type StoredLayer,
} from "../../packages/motion-model/src/viseme-net";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { type Corpus, RAW_VALUES, readCorpora } from "./corpus-files";
import { makeRng } from "./rng";

const HELD_OUT = ["klatt2", "linda", "john"];
const CLASSES = VISEMES.length;
const BATCH = 128;
const OUT = join(import.meta.dirname, "..", "..", "packages", "motion-model", "src", "viseme-weights.ts");

interface Frames {
  /** The classifier's values of every frame (FRAME_VALUES each). */
  values: Float32Array;
  labels: Int8Array;
  /** First and one-past-last frame of each frame's utterance. */
  from: Int32Array;
  to: Int32Array;
  held: Uint8Array;
  /** Loss weight of each frame's voice (--voices; 1 by default). */
  gain: Float32Array;
}

const rawFrame = (c: Corpus, i: number) => {
  const o = i * RAW_VALUES;
  return {
    mel: c.frames.subarray(o, o + MEL_BANDS),
    db: c.frames[o + MEL_BANDS],
    ref: c.frames[o + MEL_BANDS + 1],
    low: 0,
    mid: 0,
    hi: 0,
    vhi: 0,
  };
};

/**
 * Every frame's classifier values, as the product computes them (viseme-input.ts), most utterances with a
 * slow loudness swing (±12 dB over 0.3–2 s; the spectral shape is gain-free, so only the loudness value
 * moves): in the corpus every phoneme is spoken at one level, in speech soft syllables follow loud ones.
 */
function frameValuesOf(c: Corpus, rng: () => number, voiceGain: (voice: string) => number): Frames {
  const n = c.labels.length;
  const values = new Float32Array(n * FRAME_VALUES);
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  const held = new Uint8Array(n);
  const gain = new Float32Array(n);
  let at = 0;
  for (const u of c.utterances) {
    const h = HELD_OUT.includes(u.voice.split("+")[1]) ? 1 : 0;
    gain.fill(voiceGain(u.voice), at, at + u.frames);
    const swing = rng() < 0.7 ? 12 * rng() : 0;
    const period = 30 + 170 * rng();
    const phase = 2 * Math.PI * rng();
    for (let i = at; i < at + u.frames; i++) {
      const f = rawFrame(c, i);
      const gain = swing * Math.sin((2 * Math.PI * (i - at)) / period + phase);
      values.set(frameValues({ ...f, db: f.db + gain }, f.ref), i * FRAME_VALUES);
      from[i] = at;
      to[i] = at + u.frames;
      held[i] = h;
    }
    at += u.frames;
  }
  return { values, labels: c.labels, from, to, held, gain };
}

/** The classifier input of frame i, scaled to zero mean and unit variance per frame value. */
function input(c: Frames, i: number, mu: Float32Array, sd: Float32Array, out: Float32Array): Float32Array {
  for (let k = 0; k < CONTEXT.length; k++) {
    const j = i + CONTEXT[k];
    const inside = j >= c.from[i] && j < c.to[i];
    for (let v = 0; v < FRAME_VALUES; v++) {
      const x = inside ? c.values[j * FRAME_VALUES + v] : SILENT_FRAME[v];
      out[k * FRAME_VALUES + v] = (x - mu[v]) / sd[v];
    }
  }
  return out;
}

class Net {
  readonly layers: DenseLayer[];
  private readonly grads: Float32Array[];
  private readonly m: Float32Array[];
  private readonly v: Float32Array[];
  private step = 0;
  constructor(sizes: number[], rng: () => number) {
    this.layers = sizes.slice(1).map((outputs, k) => {
      const inputs = sizes[k];
      const params = new Float32Array(outputs * (inputs + 1));
      const scale = Math.sqrt(2 / inputs);
      for (let i = 0; i < outputs * inputs; i++) params[i] = (rng() + rng() + rng() - 1.5) * 2 * scale;
      return { inputs, outputs, params };
    });
    this.grads = this.layers.map((l) => new Float32Array(l.params.length));
    this.m = this.layers.map((l) => new Float32Array(l.params.length));
    this.v = this.layers.map((l) => new Float32Array(l.params.length));
  }

  /** Activations of every layer (the last one as probabilities). */
  forward(x: Float32Array, acts: Float32Array[]): Float32Array {
    let a = x;
    this.layers.forEach((l, k) => {
      const y = acts[k];
      const p = l.params;
      const n = l.inputs;
      for (let o = 0; o < l.outputs; o++) {
        let s = p[l.outputs * n + o];
        for (let i = 0, r = o * n; i < n; i++) s += p[r + i] * a[i];
        y[o] = k < this.layers.length - 1 && s < 0 ? 0 : s;
      }
      a = y;
    });
    softmax(a);
    return a;
  }

  /** Adds the gradient of −weight·log p[label]; returns the loss. */
  backward(x: Float32Array, acts: Float32Array[], deltas: Float32Array[], label: number, weight: number): number {
    const last = this.layers.length - 1;
    const p = acts[last];
    const loss = -weight * Math.log(p[label] + 1e-9);
    for (let o = 0; o < p.length; o++) deltas[last][o] = weight * (p[o] - (o === label ? 1 : 0));
    for (let k = last; k >= 0; k--) {
      const l = this.layers[k];
      const g = this.grads[k];
      const d = deltas[k];
      const a = k > 0 ? acts[k - 1] : x;
      const n = l.inputs;
      for (let o = 0; o < l.outputs; o++) {
        const dv = d[o];
        if (dv === 0) continue;
        for (let i = 0, r = o * n; i < n; i++) g[r + i] += dv * a[i];
        g[l.outputs * n + o] += dv;
      }
      if (k === 0) break;
      const dPrev = deltas[k - 1];
      for (let i = 0; i < n; i++) {
        if (a[i] <= 0) {
          dPrev[i] = 0;
          continue;
        }
        let s = 0;
        for (let o = 0; o < l.outputs; o++) s += l.params[o * n + i] * d[o];
        dPrev[i] = s;
      }
    }
    return loss;
  }

  /** One Adam step on the accumulated gradient (mean over `count` samples), then clears it. */
  update(lr: number, count: number): void {
    this.step++;
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 - b1 ** this.step;
    const c2 = 1 - b2 ** this.step;
    this.layers.forEach((l, k) => {
      const [g, m, v, p] = [this.grads[k], this.m[k], this.v[k], l.params];
      for (let i = 0; i < p.length; i++) {
        const gi = g[i] / count + (i < l.outputs * l.inputs ? 1e-5 * p[i] : 0);
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        p[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + 1e-8);
        g[i] = 0;
      }
    });
  }
}

/**
 * The first layer rescaled between scaled and raw frame values: `fold` makes the network read unscaled values
 * (as stored), otherwise stored weights become ones that read scaled values again (to train on).
 */
function rescaleInputs(l: DenseLayer, mu: Float32Array, sd: Float32Array, fold: boolean): DenseLayer {
  const params = l.params.slice();
  const n = l.inputs;
  for (let o = 0; o < l.outputs; o++) {
    let shift = 0;
    for (let i = 0; i < n; i++) {
      const v = i % FRAME_VALUES;
      const folded = fold ? l.params[o * n + i] / sd[v] : l.params[o * n + i];
      params[o * n + i] = fold ? folded : folded * sd[v];
      shift += folded * mu[v];
    }
    params[l.outputs * n + o] += fold ? -shift : shift;
  }
  return { ...l, params };
}

/**
 * Stored params `p` of layer `l` into the wider layer `into`: its units and inputs first, the new units keep
 * their random incoming weights and read by nothing yet (zero weights from new inputs), so the wider network
 * starts as the stored one.
 */
function widen(p: Float32Array, l: DenseLayer, into: DenseLayer): void {
  const q = into.params;
  for (let o = 0; o < into.outputs; o++) for (let i = l.inputs; i < into.inputs; i++) q[o * into.inputs + i] = 0;
  for (let o = 0; o < l.outputs; o++) {
    for (let i = 0; i < l.inputs; i++) q[o * into.inputs + i] = p[o * l.inputs + i];
    q[into.outputs * into.inputs + o] = p[l.outputs * l.inputs + o];
  }
}

/** The epochs in train.py (NumPy): frames and settings through a work folder, the trained params back. */
function trainWithNumpy(
  c: Frames,
  cfg: { sizes: number[]; epochs: number; lr: number; sample: number; seed: number; batch: number; weight: number[] },
  mu: Float32Array,
  sd: Float32Array,
  init: DenseLayer[] | undefined,
): Float32Array[] {
  const work = mkdtempSync(join(tmpdir(), "viseme-train-"));
  try {
    const file = (name: string, a: ArrayBufferView) =>
      writeFileSync(join(work, name), Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    file("values.f32", c.values);
    file("labels.i8", c.labels);
    file("from.i32", c.from);
    file("to.i32", c.to);
    file("held.u8", c.held);
    file("gain.f32", c.gain);
    init?.forEach((l, k) => file(`init-${k}.f32`, l.params));
    const { weight, ...rest } = cfg;
    const config = {
      ...rest,
      classWeights: weight,
      frameValues: FRAME_VALUES,
      context: CONTEXT,
      silent: [...SILENT_FRAME],
      mu: [...mu],
      sd: [...sd],
      names: VISEMES,
    };
    writeFileSync(join(work, "config.json"), JSON.stringify(config));
    // One BLAS thread: the matrices are small, and on a busy machine a second thread only spins.
    const env = { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" };
    execFileSync("python3", [join(import.meta.dirname, "train.py"), work], { stdio: "inherit", env });
    return cfg.sizes.slice(1).map((_, k) => {
      const b = readFileSync(join(work, `out-${k}.f32`));
      return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      corpus: { type: "string", default: ".local/speech" },
      epochs: { type: "string", default: "12" },
      hidden: { type: "string", default: "64,48" },
      seed: { type: "string", default: "1" },
      out: { type: "string", default: OUT },
      init: { type: "string" },
      lr: { type: "string", default: "2e-3" },
      sample: { type: "string", default: "1" },
      numpy: { type: "boolean", default: false },
      boost: { type: "string", default: "" },
      voices: { type: "string", default: "" },
    },
  });
  const rng = makeRng(Number(values.seed));
  const corpus = readCorpora(values.corpus!.split(",").map((d) => resolve(d)));
  const gains = values
    .voices!.split(",")
    .filter(Boolean)
    .map((item) => item.split("="));
  const voiceGain = (voice: string) =>
    gains.reduce((g, [prefix, by]) => (voice.startsWith(prefix) ? g * Number(by) : g), 1);
  const c = frameValuesOf(corpus, rng, voiceGain);
  const train: number[] = [];
  const held: number[] = [];
  for (let i = 0; i < c.labels.length; i++) if (c.labels[i] >= 0) (c.held[i] ? held : train).push(i);
  const mu = new Float32Array(FRAME_VALUES);
  const sd = new Float32Array(FRAME_VALUES);
  for (const i of train) for (let v = 0; v < FRAME_VALUES; v++) mu[v] += c.values[i * FRAME_VALUES + v] / train.length;
  for (const i of train)
    for (let v = 0; v < FRAME_VALUES; v++) sd[v] += (c.values[i * FRAME_VALUES + v] - mu[v]) ** 2 / train.length;
  for (let v = 0; v < FRAME_VALUES; v++) sd[v] = Math.sqrt(sd[v]) || 1;
  const share = new Float64Array(CLASSES);
  for (const i of train) share[c.labels[i]] += 1 / train.length;
  const weight = Array.from(share, (s) => 1 / Math.sqrt(s));
  const wMean = train.reduce((a, i) => a + weight[c.labels[i]], 0) / train.length;
  for (let k = 0; k < CLASSES; k++) weight[k] /= wMean;
  for (const item of values.boost!.split(",").filter(Boolean)) {
    const [name, by] = item.split("=");
    const k = VISEMES.indexOf(name as (typeof VISEMES)[number]);
    if (k < 0) throw new Error(`--boost: no class ${name}`);
    weight[k] *= Number(by);
  }

  const sizes = [INPUTS, ...values.hidden!.split(",").map(Number), CLASSES];
  const net = new Net(sizes, rng);
  if (values.init) {
    const stored: StoredLayer[] = (await import(resolve(values.init))).VISEME_LAYERS;
    const from = stored.map(decodeLayer);
    const wider = from.length === net.layers.length && from.every((l, k) => l.outputs <= net.layers[k].outputs);
    if (!wider || from[from.length - 1].outputs !== CLASSES) throw new Error(`${values.init}: other sizes`);
    from.forEach((l, k) => widen((k === 0 ? rescaleInputs(l, mu, sd, false) : l).params, l, net.layers[k]));
  }
  const [lr0, sample] = [Number(values.lr), Number(values.sample)];
  const acts = sizes.slice(1).map((n) => new Float32Array(n));
  const deltas = sizes.slice(1).map((n) => new Float32Array(n));
  const x = new Float32Array(INPUTS);
  const epochs = Number(values.epochs);
  console.log(`train ${train.length} frames, held out ${held.length} (${HELD_OUT.join(", ")}); ${sizes.join("→")}`);
  if (values.numpy) {
    const config = { sizes, epochs, lr: lr0, sample, seed: Number(values.seed), batch: 256, weight };
    const trained = trainWithNumpy(c, config, mu, sd, values.init ? net.layers : undefined);
    trained.forEach((params, k) => net.layers[k].params.set(params));
  }
  for (let e = 0; e < (values.numpy ? 0 : epochs); e++) {
    for (let i = train.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [train[i], train[j]] = [train[j], train[i]];
    }
    const lr = lr0 * 0.5 * (1 + Math.cos((Math.PI * e) / epochs));
    let loss = 0;
    const taken = Math.round(train.length * sample);
    for (let b = 0; b < taken; b += BATCH) {
      const end = Math.min(taken, b + BATCH);
      for (let s = b; s < end; s++) {
        const i = train[s];
        net.forward(input(c, i, mu, sd, x), acts);
        loss += net.backward(x, acts, deltas, c.labels[i], weight[c.labels[i]] * c.gain[i]);
      }
      net.update(lr, end - b);
    }
    const confusion = Array.from({ length: CLASSES }, () => new Array<number>(CLASSES).fill(0));
    for (const i of held) {
      const p = net.forward(input(c, i, mu, sd, x), acts);
      confusion[c.labels[i]][p.indexOf(Math.max(...p))]++;
    }
    const correct = confusion.reduce((a, row, k) => a + row[k], 0);
    const recall = confusion.map(
      (row, k) => `${VISEMES[k]} ${Math.round((100 * row[k]) / (row.reduce((a, b) => a + b, 0) || 1))}`,
    );
    console.log(
      `epoch ${e + 1}: loss ${(loss / taken).toFixed(3)}, held-out accuracy ${((100 * correct) / held.length).toFixed(1)} %; recall ${recall.join(", ")}`,
    );
    const rows = confusion.map((row, k) => `${VISEMES[k].padEnd(7)} ${row.map((n) => String(n).padStart(6)).join("")}`);
    if (e === epochs - 1) console.log(`confusions (rows = true class):\n${rows.join("\n")}`);
  }
  const layers = net.layers.map((l, k) => encodeLayer(k === 0 ? rescaleInputs(l, mu, sd, true) : l));
  const speechKinds = corpus.utterances.some((u) => u.voice.startsWith("real "))
    ? "espeak-ng, flite and real speech"
    : "espeak-ng and flite speech";
  writeFileSync(
    values.out!,
    `// Generated by scripts/speech/train.ts (${train.length} frames of ${speechKinds}, ${sizes.join("→")}); do not edit.\n` +
      `import type { StoredLayer } from "./viseme-net";\n\nexport const VISEME_LAYERS: StoredLayer[] = ${JSON.stringify(layers, null, 1)};\n`,
  );
  console.log(`wrote ${values.out}`);
}

await main();
