/**
 * Three rings of anchor vertices around the face, on rays from the face centre through the 36 face-oval
 * points: ring 1 (hair/forehead/jaw surroundings) moves with the head, ring 2 follows partly, ring 3 is
 * fixed so everything outside it (background, shoulders) stays put. Ring r, point k is vertex
 * FACE_POINTS + r × 36 + k.
 */
import { smoothstep } from "@avatar-video/motion-model";
import { FACE_POINTS, SILHOUETTE } from "./facemesh-topology";

/** Per ring: distance along the ray (× oval radius), share of the room up to the clip edge, head weight (above / below the face). */
const RINGS = [
  { t: 1.14, frac: 0.45, head: 1.0, headBelow: 0.7 },
  { t: 1.32, frac: 0.75, head: 0.4, headBelow: 0.2 },
  { t: 1.55, frac: 0.985, head: 0, headBelow: 0 },
];
/** Share of the oval point's jaw weight each ring takes. */
const RING_JAW = [0.75, 0.42, 0];

export const RING_VERTICES = SILHOUETTE.length * RINGS.length;

/** Face centre (mean of the oval) and the face's "down" direction on the canvas (forehead top → chin). */
export interface FaceAxes {
  cx: number;
  cy: number;
  /** Mean depth of the oval. */
  zc: number;
  dnx: number;
  dny: number;
}

const ringVertex = (ring: number, k: number) => FACE_POINTS + ring * SILHOUETTE.length + k;

/** Writes the ring vertices into `base` / `z`, kept inside `clip` (the visible portrait rect). */
export function placeAnchorRings(
  base: Float32Array,
  z: Float32Array,
  axes: FaceAxes,
  clip: { x0: number; y0: number; x1: number; y1: number },
): void {
  const { cx, cy, zc, dnx, dny } = axes;
  const { x0, y0, x1, y1 } = clip;
  const inset = 1.5;
  for (let k = 0; k < SILHOUETTE.length; k++) {
    const pi = SILHOUETTE[k];
    const dx = base[pi * 2] - cx;
    const dy = base[pi * 2 + 1] - cy;
    // Largest t keeping the point inside the clip rect.
    let tmax = Infinity;
    if (dx > 1e-6) tmax = Math.min(tmax, (x1 - inset - cx) / dx);
    if (dx < -1e-6) tmax = Math.min(tmax, (x0 + inset - cx) / dx);
    if (dy > 1e-6) tmax = Math.min(tmax, (y1 - inset - cy) / dy);
    if (dy < -1e-6) tmax = Math.min(tmax, (y0 + inset - cy) / dy);
    tmax = Math.max(1, tmax);
    // Below the chin the rings reach further down the neck: the jaw drop is taken up over a band of neck
    // skin (≤ 1.5× squeeze at the widest opening) instead of a sliver under the chin (test/renderer/jaw.test.ts).
    const below = Math.max(0, (dx * dnx + dy * dny) / Math.hypot(dx, dy));
    let prevT = 1;
    for (let r = 0; r < RINGS.length; r++) {
      const ring = RINGS[r];
      const want = 1 + (ring.t - 1) * (1 + 0.5 * below);
      let t = Math.min(want, 1 + (tmax - 1) * ring.frac);
      if (t < prevT + 1e-3) t = prevT + 1e-3;
      prevT = t;
      const vi = ringVertex(r, k);
      base[vi * 2] = cx + dx * t;
      base[vi * 2 + 1] = cy + dy * t;
      z[vi] = zc;
    }
  }
}

/** Quad strips (two triangles each) from the face oval out through the rings, appended to `tris`. */
export function pushRingTriangles(tris: number[]): void {
  const nRing = SILHOUETTE.length;
  const ringIdx = (r: number, k: number) => (r < 0 ? SILHOUETTE[k] : ringVertex(r, k));
  for (let r = -1; r < RINGS.length - 1; r++) {
    for (let k = 0; k < nRing; k++) {
      const k2 = (k + 1) % nRing;
      const a = ringIdx(r, k);
      const b = ringIdx(r, k2);
      const c = ringIdx(r + 1, k2);
      const d = ringIdx(r + 1, k);
      tris.push(a, b, c, a, c, d);
    }
  }
}

/**
 * Anchor rings under the jaw follow it partly, so the skin under the chin stretches/compresses smoothly
 * over a band instead of folding at the chin line. Reads the oval points' final jaw weights.
 */
export function setRingJawWeights(jawW: Float32Array): void {
  for (let r = 0; r < RINGS.length; r++) {
    for (let k = 0; k < SILHOUETTE.length; k++) jawW[ringVertex(r, k)] = jawW[SILHOUETTE[k]] * RING_JAW[r];
  }
}

/** Head weights: 1 on the face, per ring less, and less again below the face (the neck stays). */
export function headWeights(base: Float32Array, count: number, axes: FaceAxes): Float32Array {
  const { cx, cy, dnx, dny } = axes;
  const headW = new Float32Array(count);
  for (let i = 0; i < FACE_POINTS; i++) headW[i] = 1;
  for (let r = 0; r < RINGS.length; r++) {
    for (let k = 0; k < SILHOUETTE.length; k++) {
      const vi = ringVertex(r, k);
      const dx = base[vi * 2] - cx;
      const dy = base[vi * 2 + 1] - cy;
      const below = Math.max(0, (dx * dnx + dy * dny) / (Math.hypot(dx, dy) || 1));
      headW[vi] = RINGS[r].head + (RINGS[r].headBelow - RINGS[r].head) * smoothstep(0.3, 0.9, below);
    }
  }
  return headW;
}
