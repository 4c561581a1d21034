/**
 * Occluders in front of the lids (docs/animation.md, "Blinks up close"). A warp cannot tell a glasses rim
 * crossing the lid skin from the skin: a blink drags the rim down with the lid. So at painter creation the
 * thin, near-black structures that cross a lid's moving region and reach well beyond the eye (rims, a
 * strand of hair across the lid) are found on the still; in a blink the lid is painted as if they were not
 * there (their pixels filled from the skin around them) and then they are put back where the head alone
 * carries them (lid-paint.ts, occluder-carry.ts). Lashes, eyeliner and eyeshadow stay with the lid: they lie in the eye's own
 * grid rows, are thick blobs, or do not reach beyond the eye.
 */
import { type FaceModel, fillUnder, grow, rasterMax, runs } from "@avatar-video/face-rig";
import type { LidSkinPlan } from "./lid-skin";
import { yuvPlanes, type YuvPlane } from "./still-frame";

/** One plane's occluders of one eye: box (plane px), composite alpha and the still with them filled in. */
export interface OccluderPlane {
  off: number;
  pw: number;
  ph: number;
  scale: number;
  bx: number;
  by: number;
  bw: number;
  bh: number;
  alpha: Float32Array;
  clean: Uint8Array;
}

/** Per eye: its occluders' planes (luma, U, V), or none. */
export type LidOccluders = OccluderPlane[][];

/** How far beyond the eye's moving region an occluder must reach, × eye width. */
const REACH = 0.5;
/** Vertices of one eye's lid grid, 17 columns × 10 rows (packages/face-rig/src/eyelid-mesh.ts), both grids last in the mesh. */
const GRID = { cols: 17, vertices: 170 };
/** A structure crosses the lid if its thin pixels there span at least this along the eye (≈ x), × eye width. */
const CROSS = 0.5;
/** Dark: luma under this share of the skin's (rims are near black; lid creases, shadows are not). */
const DARK = 0.4;
/** Thin: the dark run across it is at most this, × eye width. */
const THIN = 0.2;

export const tri3 = (plan: LidSkinPlan, t: number) => [plan.tris[t * 3], plan.tris[t * 3 + 1], plan.tris[t * 3 + 2]];

/** Find both eyes' occluders on the still (yuv420p, W × H). */
export function lidOccluders(m: FaceModel, plan: LidSkinPlan, still: Uint8Array, W: number, H: number): LidOccluders {
  return [0, 1].map((e) => {
    const list = plan.eyeTris[e];
    const up = m.eyes[e].upper0;
    const ew = Math.hypot(
      m.base[up[0] * 2] - m.base[up[up.length - 1] * 2],
      m.base[up[0] * 2 + 1] - m.base[up[up.length - 1] * 2 + 1],
    );
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const t of list)
      for (const v of tri3(plan, t)) {
        x0 = Math.min(x0, m.base[v * 2]);
        x1 = Math.max(x1, m.base[v * 2]);
        y0 = Math.min(y0, m.base[v * 2 + 1]);
        y1 = Math.max(y1, m.base[v * 2 + 1]);
      }
    const bx = Math.max(0, Math.floor(x0 - REACH * ew)),
      by = Math.max(0, Math.floor(y0 - REACH * ew));
    const bw = Math.min(W, Math.ceil(x1 + REACH * ew)) - bx,
      bh = Math.min(H, Math.ceil(y1 + REACH * ew)) - by;
    if (!(bw > 2 && bh > 2)) return [];
    const region = new Float32Array(bw * bh);
    for (const t of list)
      rasterMax(region, bx, by, bw, bh, m.base, 1, ...(tri3(plan, t) as [number, number, number]), 1);
    // The eye itself (lashes, opening, lower lid: grid rows 1 and below) is never an occluder.
    const first = m.count - 2 * GRID.vertices + e * GRID.vertices;
    const eyeRow = (v: number) => v - first >= GRID.cols && v - first < GRID.vertices;
    const eye = new Float32Array(bw * bh);
    for (const t of list)
      if (tri3(plan, t).every(eyeRow))
        rasterMax(eye, bx, by, bw, bh, m.base, 1, ...(tri3(plan, t) as [number, number, number]), 1);
    const core = thinCrossing(still, W, bx, by, bw, bh, region, eye, ew);
    if (!core) return [];
    const alpha = new Float32Array(bw * bh);
    for (let i = 0; i < core.length; i++) if (core[i]) alpha[i] = 1;
    // One more pixel at full weight and one at half: the rim's blurred edge comes along.
    grow(alpha, bw, bh, 1, 1);
    grow(alpha, bw, bh, 1, 0.5);
    return occluderPlanes(still, W, H, bx, by, bw, bh, alpha);
  });
}

/**
 * Dark pixels (under DARK of the skin's luma) that are thin (the shorter of their horizontal and vertical
 * dark runs ≤ THIN eye widths), outside the eye and in or next to the moving region, of a dark structure
 * that reaches the box's border and crosses the lid (those pixels span ≥ CROSS eye widths across: a strand
 * of hair at a corner does not); undefined if none.
 */
function thinCrossing(
  still: Uint8Array,
  W: number,
  bx: number,
  by: number,
  bw: number,
  bh: number,
  region: Float32Array,
  eye: Float32Array,
  ew: number,
): Uint8Array | undefined {
  const L = (i: number) => still[(by + Math.floor(i / bw)) * W + bx + (i % bw)];
  // Skin reference: the box's 75th percentile (the lid itself may be dark with eyeshadow).
  const all = Array.from({ length: bw * bh }, (_, i) => L(i)).sort((a, b) => a - b);
  const ref = all[Math.floor(all.length * 0.75)];
  const dark = new Uint8Array(bw * bh);
  for (let i = 0; i < dark.length; i++) dark[i] = L(i) < Math.min(DARK * ref, ref - 50) ? 1 : 0;
  const runX = runs(dark, bw, bh, 1, bw),
    runY = runs(dark, bh, bw, bw, 1);
  const T = Math.max(3, THIN * ew);
  const near = Float32Array.from(region);
  grow(near, bw, bh, 3, 1);
  const cand = (i: number) => Math.min(runX[i], runY[i]) <= T && near[i] > 0 && !eye[i];
  // Components of dark pixels (8-connected: a rim's thick joints link its thin arcs).
  const keep = new Uint8Array(bw * bh);
  const seen = new Uint8Array(bw * bh);
  const stack: number[] = [];
  let any = false;
  for (let s = 0; s < dark.length; s++) {
    if (!dark[s] || seen[s]) continue;
    const comp: number[] = [];
    let border = false;
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    stack.push(s);
    seen[s] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % bw,
        y = (i - x) / bw;
      if (x === 0 || y === 0 || x === bw - 1 || y === bh - 1) border = true;
      if (cand(i)) {
        comp.push(i);
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx,
            Y = y + dy,
            j = Y * bw + X;
          if (X >= 0 && Y >= 0 && X < bw && Y < bh && dark[j] && !seen[j]) (seen[j] = 1), stack.push(j);
        }
    }
    if (!border || x1 - x0 < CROSS * ew) continue;
    for (const i of comp) {
      keep[i] = 1;
      if (region[i] > 0) any = true;
    }
  }
  return any ? keep : undefined;
}

/** The luma box and both chroma boxes, each with its alpha and the still filled in under it. */
export function occluderPlanes(
  still: Uint8Array,
  W: number,
  H: number,
  bx: number,
  by: number,
  bw: number,
  bh: number,
  alpha: Float32Array,
): OccluderPlane[] {
  const [y, u, v] = yuvPlanes(W, H);
  const luma = { ...y, bx, by, bw, bh, alpha };
  const cbx = bx >> 1,
    cby = by >> 1;
  const cbw = Math.min(u.pw, (bx + bw + 1) >> 1) - cbx,
    cbh = Math.min(u.ph, (by + bh + 1) >> 1) - cby;
  const ca = new Float32Array(cbw * cbh);
  for (let j = 0; j < bh; j++)
    for (let i = 0; i < bw; i++) {
      const a = alpha[j * bw + i];
      const c = (((by + j) >> 1) - cby) * cbw + ((bx + i) >> 1) - cbx;
      if (a > ca[c]) ca[c] = a;
    }
  const chroma = (p: YuvPlane) => ({ ...p, bx: cbx, by: cby, bw: cbw, bh: cbh, alpha: ca });
  return [luma, chroma(u), chroma(v)].map((p) => ({ ...p, clean: fillUnder(still, p) }));
}
