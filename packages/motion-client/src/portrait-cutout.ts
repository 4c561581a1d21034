/**
 * The portrait's images in the browser: loading them from their signed links, and the person cut out by the
 * matte with the person's own colours at its edges (face-rig's matteForeground, as the renderer's alpha video).
 */
import { matteForeground } from "@avatar-video/face-rig";

export async function loadImage(url: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.crossOrigin = "anonymous";
  image.src = url;
  await image.decode();
  return image;
}

/** The portrait's pixels with the person's own colours at the edges (face-rig's matteForeground) and the matte as alpha. */
export function cutout(portrait: ImageData, matte: HTMLImageElement, W: number, H: number): ImageData {
  const c = document.createElement("canvas");
  c.width = W;
  c.height = H;
  const ctx = c.getContext("2d", { willReadFrequently: true })!;
  ctx.drawImage(matte, 0, 0, W, H);
  const m = ctx.getImageData(0, 0, W, H).data;
  const rgb = new Uint8Array(W * H * 3);
  const alpha = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) {
    rgb.set(portrait.data.subarray(i * 4, i * 4 + 3), i * 3);
    alpha[i] = m[i * 4];
  }
  const fg = matteForeground(rgb, alpha, W, H);
  const out = new ImageData(W, H);
  for (let i = 0; i < W * H; i++) {
    out.data.set(fg.subarray(i * 3, i * 3 + 3), i * 4);
    out.data[i * 4 + 3] = alpha[i];
  }
  return out;
}
