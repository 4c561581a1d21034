/** Reading the still yuv420p frame (the photo on the canvas) at sub-pixel positions, as RGB. */

/** yuv420p frame layout (see video/yuv.ts). */
export interface YuvFrameLayout {
  width: number;
  height: number;
  ySize: number;
  cSize: number;
}

/** One plane of a yuv420p frame: byte offset, width, height, and the scale of canvas coordinates on it. */
export interface YuvPlane {
  off: number;
  pw: number;
  ph: number;
  scale: number;
}

/** Luma, then both chroma planes (half resolution) of a W × H yuv420p frame. */
export function yuvPlanes(W: number, H: number): [YuvPlane, YuvPlane, YuvPlane] {
  const cw = W >> 1,
    ch = H >> 1;
  return [
    { off: 0, pw: W, ph: H, scale: 1 },
    { off: W * H, pw: cw, ph: ch, scale: 0.5 },
    { off: W * H + cw * ch, pw: cw, ph: ch, scale: 0.5 },
  ];
}

/** Deterministic per-pixel noise, roughly N(0, 1): painted grain is static, like the photo's own. */
export function grainNoise(x: number, y: number): number {
  let h = Math.imul(x * 374761393 + y * 668265263, 1274126177);
  h ^= h >>> 13;
  h = Math.imul(h, 1274126177);
  const a = (h & 0xffff) / 65536;
  const b = ((h >>> 16) & 0xffff) / 65536;
  return (a + b - 1) * 2.45;
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
