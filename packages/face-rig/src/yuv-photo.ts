/**
 * The still photo as a yuv420p frame (BT.709 limited range, chroma = average of each 2×2 block), the form
 * the mouth painting reads it in: the renderer converts its canvas once (container/src/paint/yuv.ts), the
 * live client its portrait (yuv420FromPixels, the same arithmetic), so both sample the same values.
 */
import type { Pixels } from "./photo-colors";

/** yuv420p frame layout: luma W × H, then two chroma planes of (W >> 1) × (H >> 1). */
export interface YuvFrameLayout {
  width: number;
  height: number;
  ySize: number;
  cSize: number;
}

export function yuvFrameLayout(width: number, height: number): YuvFrameLayout {
  return { width, height, ySize: width * height, cSize: (width >> 1) * (height >> 1) };
}

/**
 * RGB(A) pixels → yuv420p, BT.709 limited range, coefficients × 256 (the renderer's and the live client's one
 * conversion). An odd last column or row gets luma only (the chroma planes cover whole 2×2 blocks;
 * samplePhoto clamps to them).
 */
export function yuv420FromPixels(p: Pixels): Uint8Array {
  const { data, width: W, height: H, channels: n } = p;
  const L = yuvFrameLayout(W, H);
  const out = new Uint8Array(L.ySize + 2 * L.cSize);
  for (let i = 0; i < W * H; i++)
    out[i] = ((47 * data[i * n] + 157 * data[i * n + 1] + 16 * data[i * n + 2] + 128) >> 8) + 16;
  const cw = W >> 1;
  for (let cy = 0; cy < H >> 1; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < 4; k++) {
        const o = ((cy * 2 + (k >> 1)) * W + cx * 2 + (k & 1)) * n;
        r += data[o];
        g += data[o + 1];
        b += data[o + 2];
      }
      const co = cy * cw + cx;
      out[L.ySize + co] = ((-26 * r - 86 * g + 112 * b + 512) >> 10) + 128;
      out[L.ySize + L.cSize + co] = ((112 * r - 102 * g - 10 * b + 512) >> 10) + 128;
    }
  }
  return out;
}

/** BT.709 limited-range luma of an RGB colour: yuv420FromPixels' coefficients, unrounded. */
export const lumaOf = (r: number, g: number, b: number): number => 16 + (47 * r + 157 * g + 16 * b) / 256;

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
