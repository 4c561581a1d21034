/**
 * Rect helpers of the piecewise-affine warp. The renderer warps directly in YUV 4:2:0 (luma at full,
 * chroma at half resolution, vertex coordinates × 0.5), so no per-frame colour conversion is needed; the
 * per-pixel warp itself is the WebAssembly kernel in wasm/ (warp.as.ts, loaded by warp-kernel.ts).
 */

import type { Rect } from "@avatar-video/face-rig";

export const EMPTY_RECT: Rect = { x0: 0, y0: 0, x1: 0, y1: 0 };

export const isEmpty = (r: Rect) => !(r.x1 > r.x0 && r.y1 > r.y0);

/** Union of rects (empty rects ignored). */
export function unionRect(a: Rect, b: Rect): Rect {
  if (isEmpty(a)) return { ...b };
  if (isEmpty(b)) return { ...a };
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

export function intersectRect(a: Rect, b: Rect): Rect {
  const r = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return isEmpty(r) ? EMPTY_RECT : r;
}

/**
 * Copy a rect of one plane (plane coordinates) from `src` to `dst` (same layout). Frames in one buffer (the
 * painter's arena) are copied within it, row by row, without making a view per row.
 */
export function copyPlaneRect(src: Uint8Array, dst: Uint8Array, off: number, pw: number, r: Rect): void {
  if (isEmpty(r)) return;
  const w = r.x1 - r.x0;
  if (src.buffer === dst.buffer) {
    const all = new Uint8Array(src.buffer);
    const to = dst.byteOffset - src.byteOffset;
    for (let y = r.y0, o = src.byteOffset + off + r.y0 * pw + r.x0; y < r.y1; y++, o += pw)
      all.copyWithin(o + to, o, o + w);
    return;
  }
  for (let y = r.y0; y < r.y1; y++) {
    const o = off + y * pw + r.x0;
    dst.set(src.subarray(o, o + w), o);
  }
}
