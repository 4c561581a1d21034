/**
 * Beside the unchanged video most of the person layer need not be warped: a triangle whose rest footprint
 * (its bounding box and the bilinear neighbour) is opaque and has the canvas's own colours (luma and both
 * chroma planes) warps to exactly the video frame's pixels, with alpha 255. Those triangles' spans are
 * copied into the person layer as the video frame's warp writes them, alpha 255 (paint-band.ts); only the
 * others — along the person's outline, a few percent of the moving area — are warped from the person layer.
 */
import type { FaceModel } from "@avatar-video/face-rig";
import type { Yuv420Layout } from "./yuv";

export function splitPersonTris(
  model: FaceModel,
  stat: Uint8Array,
  person: Uint8Array,
  L: Yuv420Layout,
): { inner: Uint8Array; edge: Uint32Array } {
  /** A byte per triangle of the tris, then the hole tris: 1 where inner. */
  const inner: number[] = [];
  const edge: number[] = [];
  for (const tris of [model.tris, model.holeTris]) {
    for (let t = 0; t < tris.length; t += 3) {
      const tri = [tris[t], tris[t + 1], tris[t + 2]];
      const same = sameAndOpaque(model.base, tri, stat, person, L);
      inner.push(same ? 1 : 0);
      if (!same) edge.push(...tri);
    }
  }
  return { inner: Uint8Array.from(inner), edge: Uint32Array.from(edge) };
}

function sameAndOpaque(
  base: Float32Array,
  tri: number[],
  stat: Uint8Array,
  person: Uint8Array,
  L: Yuv420Layout,
): boolean {
  const xs = tri.map((i) => base[i * 2]);
  const ys = tri.map((i) => base[i * 2 + 1]);
  const box = (scale: number, w: number, h: number) => ({
    x0: Math.max(0, Math.floor(Math.min(...xs) * scale) - 1),
    y0: Math.max(0, Math.floor(Math.min(...ys) * scale) - 1),
    x1: Math.min(w - 1, Math.ceil(Math.max(...xs) * scale) + 1),
    y1: Math.min(h - 1, Math.ceil(Math.max(...ys) * scale) + 1),
  });
  const W = L.width;
  const y = box(1, W, L.height);
  for (let r = y.y0; r <= y.y1; r++) {
    for (let i = r * W + y.x0, end = r * W + y.x1; i <= end; i++)
      if (person[L.frameSize + i] !== 255 || person[i] !== stat[i]) return false;
  }
  const cw = W >> 1;
  const c = box(0.5, cw, L.height >> 1);
  for (let r = c.y0; r <= c.y1; r++) {
    for (let i = L.ySize + r * cw + c.x0, end = L.ySize + r * cw + c.x1; i <= end; i++) {
      if (person[i] !== stat[i] || person[i + L.cSize] !== stat[i + L.cSize]) return false;
    }
  }
  return true;
}
