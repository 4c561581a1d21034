/**
 * Focus measure of a face: variance of the Laplacian over the inner face, measured at a fixed face
 * scale so the number does not depend on the photo's resolution.
 */
import sharp from "sharp";
import type { Box, RgbImage } from "./analyze";

/**
 * The inner face is measured at this width. At 96 px, downscaling averages away JPEG and sensor noise
 * while blur of ≥ 1.5 % of the face width still shows. Smaller faces (from 64 px, whose inner part is
 * ~45 px) are upscaled to it (bicubic), so blur is judged relative to the face at every size; measured at
 * their own size, a 64 px face blurred by 3 % of its width still scored above the bar
 * (docs/avatar-image-rules.md).
 */
const MEASURE_WIDTH = 96;
/** Keep the middle of the tight mesh box: eyes, nose, mouth, not the hair or background at its edge. */
const INNER = 0.7;

export interface Sharpness {
  /** Variance of the 4-neighbour Laplacian (grey levels²). */
  laplacianVar: number;
  /** The same divided by the region's grey-level variance: insensitive to contrast and exposure. */
  normalized: number;
}

export async function faceSharpness(image: RgbImage, box: Box): Promise<Sharpness> {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const w = box.width * INNER;
  const h = box.height * INNER;
  const left = Math.max(0, Math.round(cx - w / 2));
  const top = Math.max(0, Math.round(cy - h / 2));
  const width = Math.min(image.width - left, Math.round(w));
  const height = Math.min(image.height - top, Math.round(h));
  if (width < 8 || height < 8) return { laplacianVar: 0, normalized: 0 };
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left, top, width, height })
    .greyscale()
    .resize({ width: MEASURE_WIDTH, kernel: width < MEASURE_WIDTH ? "cubic" : "lanczos3" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return laplacian(data, info.width, info.height, info.channels);
}

function laplacian(g: Buffer, w: number, h: number, ch: number): Sharpness {
  let n = 0,
    sum = 0,
    sum2 = 0,
    gs = 0,
    gs2 = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = (y * w + x) * ch;
      const c = g[i];
      const l = g[i - ch] + g[i + ch] + g[i - w * ch] + g[i + w * ch] - 4 * c;
      sum += l;
      sum2 += l * l;
      gs += c;
      gs2 += c * c;
      n++;
    }
  }
  const lapVar = sum2 / n - (sum / n) ** 2;
  const greyVar = gs2 / n - (gs / n) ** 2;
  return { laplacianVar: lapVar, normalized: greyVar > 0 ? lapVar / greyVar : 0 };
}
