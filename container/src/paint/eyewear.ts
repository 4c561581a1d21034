/**
 * Glasses stay rigid while an expression moves the brows and lids (docs/performance.md). The warp cannot tell
 * a rim from the skin under it: raised brows would arch the bridge and lift the rim tops. So at painter
 * creation the eyewear is found on the still (face-rig's eyewearMask, shared with the live client) and
 * while an expression shows, the moved skin is painted as if they were not there (filled from the skin
 * around them) and they are put back where the head alone carries them (occluder-carry.ts `takeOut`, `putBack`).
 */
import { eyewearMask, type FaceModel, type Rect, relaxFill, triangleRows } from "@avatar-video/face-rig";
import { occluderPlanes, type OccluderPlane } from "./lid-occluders";
import { type Occluder, putBack, takeOut } from "./occluder-carry";

export interface Eyewear {
  /** Luma and chroma planes: box, alpha and the still with the eyewear filled in. */
  planes: OccluderPlane[];
  /** Mesh triangles (vertex triples) whose rest position holds a stroke: the only ones that can carry one away. */
  carry: number[][];
  /** Per plane, per carrying triangle: the box of its stroke pixels at rest (plane box px). */
  bounds: Map<number[], Int32Array>[];
  /** The luma box, even-aligned. */
  box: Rect;
}

/** How far from the box a pixel whose skin came from under a stroke can lie, × interocular (head motion 3). */
const REACH = 0.3;

/** Find the eyewear on the still (yuv420p, W × H), or undefined. */
export function findEyewear(m: FaceModel, still: Uint8Array, W: number, H: number): Eyewear | undefined {
  const mask = eyewearMask(m, still, W, H);
  if (!mask) return undefined;
  const { alpha, box, thin: T } = mask;
  const [bx, by, bw, bh] = [box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0];
  const planes = occluderPlanes(still, W, H, bx, by, bw, bh, alpha);
  for (const p of planes) relaxFill(p.clean, p.alpha, p.bw, p.bh, Math.ceil(2 * T * p.scale));
  const tris = Array.from({ length: m.tris.length / 3 }, (_, t) => [
    m.tris[t * 3],
    m.tris[t * 3 + 1],
    m.tris[t * 3 + 2],
  ]);
  const bounds = planes.map((p) => strokeBounds(p, tris, m));
  const carry = tris.filter((v) => bounds.some((b) => b.has(v)));
  return { planes, carry, bounds, box };
}

/** Per triangle, the box of the plane's stroke pixels (alpha > 0) whose centres lie in it at rest. */
function strokeBounds(p: OccluderPlane, tris: number[][], m: FaceModel): Map<number[], Int32Array> {
  const out = new Map<number[], Int32Array>();
  // Rest positions as mapBack has them: pixel-index coordinates of the plane's box.
  const at = (i: number, k: 0 | 1) => m.base[i * 2 + k] * p.scale - 0.5 - (k ? p.by : p.bx) + 0.5;
  for (const v of tris) {
    const b = Int32Array.of(p.bw, p.bh, -1, -1);
    triangleRows(
      at(v[0], 0),
      at(v[0], 1),
      at(v[1], 0),
      at(v[1], 1),
      at(v[2], 0),
      at(v[2], 1),
      p.bw,
      p.bh,
      (x0, x1, y) => {
        for (let x = x0; x <= x1; x++)
          if (p.alpha[y * p.bw + x] > 0) {
            b[0] = Math.min(b[0], x);
            b[1] = Math.min(b[1], y);
            b[2] = Math.max(b[2], x);
            b[3] = Math.max(b[3], y);
          }
      },
    );
    if (b[2] >= 0) out.set(v, b);
  }
  return out;
}

/**
 * An expression's frame: the eyewear taken out of the skin the expression moved and put back where the pose
 * without its expression and blink (`rigid`) carries it. Only triangles the expression displaced from there
 * take part (elsewhere both steps cancel); every pixel they cover now or at `rigid` was repainted by the warp
 * (a displaced triangle moved; a pixel of its rigid place lies in it, or in a moved one when the head moves).
 * Call `takeOutEyewear` before the blink's lid painting and `putBackEyewear` after it, with the same `rigid`.
 */
export function takeOutEyewear(
  frame: Uint8Array,
  xy: Float32Array,
  rigid: Float32Array,
  m: FaceModel,
  ew: Eyewear,
): void {
  // Skin comes from under the strokes to at most where the head and the expression carry it.
  occluders(xy, rigid, m, ew).forEach((o, k) => takeOut(frame, xy, o, REACH * m.interocular * ew.planes[k].scale));
}

export function putBackEyewear(
  frame: Uint8Array,
  still: Uint8Array,
  xy: Float32Array,
  rigid: Float32Array,
  m: FaceModel,
  ew: Eyewear,
): void {
  for (const o of occluders(xy, rigid, m, ew)) putBack(frame, still, xy, rigid, o, true, null);
}

/** Each plane's strokes over the triangles the expression moved. */
const occluders = (xy: Float32Array, rigid: Float32Array, m: FaceModel, ew: Eyewear) => {
  const tris = displaced(xy, rigid, ew.carry);
  return ew.planes.map((p, k) => occluder(m, tris, p, ew.bounds[k]));
};

/** Triangles with a vertex more than a quarter pixel from its rigid place (a smaller bend does not show). */
const displaced = (xy: Float32Array, rigid: Float32Array, tris: number[][]) =>
  tris.filter((v) =>
    v.some((i) => Math.abs(xy[i * 2] - rigid[i * 2]) > 0.25 || Math.abs(xy[i * 2 + 1] - rigid[i * 2 + 1]) > 0.25),
  );

const occluder = (m: FaceModel, tris: number[][], p: OccluderPlane, bounds: Map<number[], Int32Array>): Occluder => ({
  m,
  tris,
  p,
  bounds,
});
