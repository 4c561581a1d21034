/**
 * One horizontal band of one frame, painted by the calling thread and by each paint worker alike: restore
 * what the buffer's previous paint wrote, then warp the moved triangles of the three yuv420p planes. Also
 * the shared control block through which FramePainter drives its workers (painter.ts, paint-worker.ts).
 */
import { copyPlaneRect, EMPTY_RECT, intersectRect, isEmpty, unionRect, type Rect } from "../animate/warp";
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

export const even = (r: Rect): Rect => (isEmpty(r) ? EMPTY_RECT : { x0: r.x0 & ~1, y0: r.y0 & ~1, x1: (r.x1 + 1) & ~1, y1: (r.y1 + 1) & ~1 });
const half = (r: Rect): Rect => (isEmpty(r) ? EMPTY_RECT : { x0: r.x0 >> 1, y0: r.y0 >> 1, x1: (r.x1 + 1) >> 1, y1: (r.y1 + 1) >> 1 });

/**
 * One band of one frame: restore `prev` (luma rect, even) from the static frame, warp the three planes,
 * return the luma rect written (even-aligned). Used by the caller and the workers alike.
 */
export function paintBand(k: WarpKernel, a: PaintArena, frame: Uint8Array, L: Yuv420Layout, prev: Rect, band: Rect): Rect {
  const stat = a.stat;
  const W = L.width;
  const H = L.height;
  const cw = W >> 1;
  const ch = H >> 1;
  if (!isEmpty(prev)) {
    copyPlaneRect(stat, frame, 0, W, prev);
    const c = half(prev);
    copyPlaneRect(stat, frame, L.ySize, cw, c);
    copyPlaneRect(stat, frame, L.ySize + L.cSize, cw, c);
  }
  const cb = half(band);
  let w = k.warp(stat, frame, W, H, 0, -1, a.tris, 1, band);
  w = unionRect(w, k.warp(stat, frame, W, H, 0, -1, a.holeTris, 1, band));
  const u = L.ySize;
  const v = L.ySize + L.cSize;
  let c = k.warp(stat, frame, cw, ch, u, v, a.tris, 0.5, cb);
  c = unionRect(c, k.warp(stat, frame, cw, ch, u, v, a.holeTris, 0.5, cb));
  const cl: Rect = isEmpty(c) ? EMPTY_RECT : { x0: c.x0 * 2, y0: c.y0 * 2, x1: c.x1 * 2, y1: c.y1 * 2 };
  return intersectRect(even(unionRect(w, cl)), band);
}
