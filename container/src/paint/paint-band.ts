/**
 * One horizontal band of one frame, painted by the calling thread and by each paint worker alike: restore
 * what the buffer's previous paint wrote, then warp the moved triangles of the three yuv420p planes. Also
 * the shared control block through which FramePainter drives its workers (band-workers.ts, paint-worker.ts).
 */
import type { Rect } from "@avatar-video/face-rig";
import { copyPlaneRect, EMPTY_RECT, intersectRect, isEmpty, unionRect } from "./warp";
import { blendPerson } from "./person-blend";
import type { ArenaSpec, PaintArena, WarpKernel } from "./wasm/warp-kernel";
import type { Yuv420Layout } from "./yuv";

/** Control block layout (Int32 slots). */
export const CTRL = { CMD: 0, DONE: 1, QUIT: 2, POOL: 3, ERR: 4, SIZE: 8 } as const;
/** Per-frame float parameters shared with the workers (Float32 slots). */
export const PARAM = { BLINK_R: 0, BLINK_L: 1, SIZE: 4 } as const;

export interface PainterInit {
  width: number;
  height: number;
  band: Rect;
  memory: WebAssembly.Memory;
  arena: ArenaSpec;
  /** The worker's result slot in the arena. */
  slot: number;
  ctrlSab: SharedArrayBuffer;
  paramSab: SharedArrayBuffer;
}

export const even = (r: Rect): Rect =>
  isEmpty(r) ? EMPTY_RECT : { x0: r.x0 & ~1, y0: r.y0 & ~1, x1: (r.x1 + 1) & ~1, y1: (r.y1 + 1) & ~1 };
const half = (r: Rect): Rect =>
  isEmpty(r) ? EMPTY_RECT : { x0: r.x0 >> 1, y0: r.y0 >> 1, x1: (r.x1 + 1) >> 1, y1: (r.y1 + 1) >> 1 };

/**
 * One band of pooled frame `bi`: restore `prev` (luma rect, even) from the static frame(s), warp the moved
 * triangles, return the luma rect written (even-aligned). Used by the caller and the workers alike. With a
 * person layer (video/person-scene.ts) its frame is painted too, alpha with the luma's geometry: over a new
 * background the video frame is then the person blended over it, never the warped background; beside the
 * unchanged video the person takes the video's warped pixels wherever they are its own (person-tris.ts).
 */
export function paintBand(k: WarpKernel, a: PaintArena, bi: number, L: Yuv420Layout, prev: Rect, band: Rect): Rect {
  const mode = a.spec.person;
  const frame = a.pool[bi];
  const person = a.personPool[bi];
  copyYuvRect(a.stat, frame, L, prev);
  if (mode !== "none") copyYuvRect(a.personStat, person, L, prev, true);
  if (mode === "over") {
    const w = warpPlanes(k, a.personStat, person, L, band, [a.tris, a.holeTris], true);
    blendPerson(person, a.back, frame, L, w);
    return w;
  }
  if (mode === "beside") warpPlanes(k, a.personStat, person, L, band, [a.edgeTris], true);
  // Beside: the video's spans of the inner triangles go to the person layer as they are written, alpha 255.
  const mirror = mode === "beside" ? person : undefined;
  return warpPlanes(k, a.stat, frame, L, band, [a.tris, a.holeTris], false, mirror && { dst: mirror, inner: a.inner });
}

/** Copy the luma rect `r` (even) and its chroma (and the alpha plane after them) from `src` to `dst`. */
export function copyYuvRect(src: Uint8Array, dst: Uint8Array, L: Yuv420Layout, r: Rect, alpha = false): void {
  if (isEmpty(r)) return;
  const cw = L.width >> 1;
  copyPlaneRect(src, dst, 0, L.width, r);
  const c = half(r);
  copyPlaneRect(src, dst, L.ySize, cw, c);
  copyPlaneRect(src, dst, L.ySize + L.cSize, cw, c);
  if (alpha) copyPlaneRect(src, dst, L.frameSize, L.width, r);
}

/**
 * Warp the three planes (and the alpha plane after them) of `src` into `dst` within `band`, for each
 * triangle list in turn. `mirror`: the spans of the triangles flagged in `inner` (a byte per triangle of
 * the lists, in order) also go to that yuva420p frame, alpha 255.
 */
function warpPlanes(
  k: WarpKernel,
  src: Uint8Array,
  dst: Uint8Array,
  L: Yuv420Layout,
  band: Rect,
  lists: Uint32Array[],
  alpha: boolean,
  mirror?: { dst: Uint8Array; inner: Uint8Array },
): Rect {
  const W = L.width;
  const H = L.height;
  const cb = half(band);
  // Luma and alpha share a geometry: one call warps both.
  const second = alpha ? L.frameSize : -1;
  let w = EMPTY_RECT;
  let c = EMPTY_RECT;
  let at = 0;
  for (const tris of lists) {
    const m = mirror && { dst: mirror.dst, mask: mirror.inner.subarray(at, at + tris.length / 3) };
    at += tris.length / 3;
    const luma = m && { ...m, alphaAt: L.frameSize };
    w = unionRect(w, k.warp(src, dst, W, H, 0, second, tris, 1, band, luma));
    c = unionRect(c, k.warp(src, dst, W >> 1, H >> 1, L.ySize, L.ySize + L.cSize, tris, 0.5, cb, m));
  }
  const cl: Rect = isEmpty(c) ? EMPTY_RECT : { x0: c.x0 * 2, y0: c.y0 * 2, x1: c.x1 * 2, y1: c.y1 * 2 };
  return intersectRect(even(unionRect(w, cl)), band);
}
