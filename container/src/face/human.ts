/**
 * The face models (@vladmandic/human: BlazeFace + FaceMesh + iris) on the WASM backend, loaded once per
 * process from the package's own `models/` folder. Nothing is fetched over the network.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config, Human } from "@vladmandic/human";

const require = createRequire(import.meta.url);

// The package's `exports` map has no valid entry for the node-wasm build: resolve the package's main
// file (dist/human.node.js) and take its sibling by path. Works from any cwd and inside the image.
const HUMAN_DIST = path.dirname(require.resolve("@vladmandic/human"));
const MODELS_DIR = path.join(HUMAN_DIST, "..", "models");
const WASM_DIR = path.join(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")), path.sep);
const MODEL_BASE = `${pathToFileURL(MODELS_DIR).href}/`;

const CONFIG: Partial<Config> = {
  backend: "wasm",
  wasmPath: WASM_DIR,
  modelBasePath: MODEL_BASE,
  debug: false,
  async: true,
  warmup: "none", // human's own warm-up needs a canvas or tfjs-node; see warmHuman()
  cacheSensitivity: 0, // still images: never reuse a previous frame's result
  skipAllowed: false,
  filter: { enabled: false } as Config["filter"],
  face: {
    enabled: true,
    // rotation: FaceMesh runs on an upright crop, so rolled heads keep accurate points
    detector: {
      rotation: true,
      maxDetected: 10,
      skipFrames: 0,
      skipTime: 0,
      minConfidence: 0.2,
      iouThreshold: 0.1,
      return: false,
    },
    mesh: { enabled: true },
    iris: { enabled: true },
    attention: { enabled: false },
    description: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    gear: { enabled: false },
  } as unknown as Config["face"],
  body: { enabled: false } as Config["body"],
  hand: { enabled: false } as Config["hand"],
  object: { enabled: false } as Config["object"],
  gesture: { enabled: false },
  segmentation: { enabled: false } as Config["segmentation"],
};

/** tfjs IOHandler reading a model.json and its weight shards from disk (Node's fetch has no file://). */
export function fileHandler(url: string) {
  const file = new URL(url);
  return {
    async load() {
      const jsonPath = file.pathname;
      const json = JSON.parse(await readFile(jsonPath, "utf8"));
      const dir = path.dirname(jsonPath);
      const weightSpecs = [];
      const shards: Buffer[] = [];
      for (const group of json.weightsManifest ?? []) {
        weightSpecs.push(...group.weights);
        for (const p of group.paths) shards.push(await readFile(path.join(dir, p)));
      }
      const all = Buffer.concat(shards);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        modelInitializer: json.modelInitializer,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

let instance: Promise<Human> | undefined;

async function create(): Promise<Human> {
  let HumanClass: typeof import("@vladmandic/human").Human;
  try {
    ({ Human: HumanClass } = require(
      path.join(HUMAN_DIST, "human.node-wasm.js"),
    ) as typeof import("@vladmandic/human"));
  } catch (err) {
    // The node-wasm build requires tfjs-core, tfjs-converter and tfjs-backend-wasm (all 4.22.0) itself.
    throw new Error(`face models: cannot load human.node-wasm.js (${(err as Error).message.split("\n")[0]})`);
  }
  const human = new HumanClass(CONFIG);
  human.tf.io.registerLoadRouter((url: string | string[]) =>
    typeof url === "string" && url.startsWith(MODEL_BASE) ? fileHandler(url) : null,
  );
  await human.load();
  if (human.tf.getBackend() !== "wasm")
    throw new Error(`face models: wasm backend unavailable (${human.tf.getBackend()})`);
  for (const name of ["blazeface", "facemesh", "iris"]) {
    if (!human.models.models[name as keyof typeof human.models.models])
      throw new Error(`face model ${name} failed to load`);
  }
  return human;
}

/** The process-wide Human instance; loads the models on first use. A failed load is retried next call. */
export function getHuman(): Promise<Human> {
  instance ??= create().catch((err) => {
    instance = undefined;
    throw err;
  });
  return instance;
}

// Human keeps per-call state in module globals (the detector's box cache): one call at a time.
let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` with the Human instance, never concurrently with another `withHuman` call. */
export function withHuman<T>(fn: (human: Human) => Promise<T>): Promise<T> {
  const run = queue.then(async () => fn(await getHuman()));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Loads the models and runs each once on a blank frame, so the first real request does not pay
 * for WASM compilation and kernel setup. Call at server start; safe to call repeatedly.
 */
export function warmHuman(): Promise<void> {
  return withHuman(warm);
}

async function warm(human: Human): Promise<void> {
  const tf = human.tf;
  const frame = tf.zeros([256, 256, 3], "float32");
  try {
    await human.detect(frame as never);
    // FaceMesh and iris only run behind a detection: execute them directly on blank inputs.
    for (const name of ["facemesh", "iris"] as const) {
      const model = human.models.models[name];
      const shape = model?.inputs[0]?.shape;
      if (!model || !shape) continue;
      const input = tf.zeros(shape.map((d: number | null) => (d == null || d < 0 ? 1 : d)));
      const out = model.execute(input);
      tf.dispose([input, out as never]);
    }
  } finally {
    tf.dispose(frame);
  }
}
