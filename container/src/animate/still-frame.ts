/** Reading the still yuv420p frame (the photo on the canvas) at sub-pixel positions, as RGB. */

/** yuv420p frame layout (see video/yuv.ts). */
export interface YuvFrameLayout {
  width: number;
  height: number;
  ySize: number;
  cSize: number;
}

/** RGB of the still yuv420p frame at canvas point (x, y), bilinear luma, nearest chroma (BT.709 limited). */
export function samplePhoto(stat: Uint8Array, L: YuvFrameLayout, x: number, y: number): [number, number, number] {
  const W = L.width;
  const H = L.height;
  const ix = Math.max(0, Math.min(W - 2, Math.floor(x - 0.5)));
  const iy = Math.max(0, Math.min(H - 2, Math.floor(y - 0.5)));
  const fx = Math.min(1, Math.max(0, x - 0.5 - ix));
  const fy = Math.min(1, Math.max(0, y - 0.5 - iy));
  const o = iy * W + ix;
  const Y = (stat[o] * (1 - fx) + stat[o + 1] * fx) * (1 - fy) + (stat[o + W] * (1 - fx) + stat[o + W + 1] * fx) * fy;
  const c = Math.min((H >> 1) - 1, Math.floor(y / 2)) * (W >> 1) + Math.min((W >> 1) - 1, Math.floor(x / 2));
  const U = stat[L.ySize + c] - 128;
  const V = stat[L.ySize + L.cSize + c] - 128;
  const yy = 1.164 * (Y - 16);
  return [yy + 1.793 * V, yy - 0.213 * U - 0.533 * V, yy + 2.112 * U];
}
