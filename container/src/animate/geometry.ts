/**
 * The animation mesh for one portrait placed on the output canvas.
 *
 * Vertices: the 468 FaceMesh points (canvas pixels) followed by three rings of anchor points on rays from
 * the face centre through the 36 face-oval points: ring 1 (hair/forehead/jaw surroundings) moves with the
 * head, ring 2 follows partly, ring 3 is fixed so everything outside it (background, shoulders) stays put.
 * Triangles: TRI468 (face, including the eye openings) + quad strips between the oval and the rings.
 * The inner-lip loop is triangulated separately ("hole" triangles); those pixels are covered by the
 * synthesised mouth interior.
 */
import type { AvatarRig } from "@avatar-video/contract";
import {
  LEFT_EYE_LOWER0,
  LEFT_EYE_LOWER1,
  LEFT_EYE_UPPER0,
  LEFT_EYE_UPPER1,
  LEFT_EYE_UPPER2,
  LEFT_EYEBROW,
  LIPS_LOWER_INNER,
  LIPS_LOWER_OUTER,
  LIPS_LOWER_SEMI_INNER,
  LIPS_LOWER_SEMI_OUTER,
  LIPS_UPPER_INNER,
  LIPS_UPPER_OUTER,
  LIPS_UPPER_SEMI_INNER,
  LIPS_UPPER_SEMI_OUTER,
  RIGHT_EYE_LOWER0,
  RIGHT_EYE_LOWER1,
  RIGHT_EYE_UPPER0,
  RIGHT_EYE_UPPER1,
  RIGHT_EYE_UPPER2,
  RIGHT_EYEBROW,
  SILHOUETTE,
  TRI468,
} from "./facemesh-topology";
import { smoothstep } from "@avatar-video/motion-model";

export const FACE_POINTS = 468;
/**
 * Share of the eye opening by which the lids meet *below* the resting lower-lid points in a blink: FaceMesh's
 * lower-lid points sit on the waterline with a sliver of sclera under them, so the upper lid closes over it
 * and the lower lid is pushed down a little (its skin band compresses) instead of rising.
 */
const LOWER_LID_RISE = -0.16;
/** Nose base and nostrils: they follow the jaw a little (the upper lip and cheeks are pulled down). */
const NOSE_BASE = [2, 94, 19, 97, 326, 98, 327, 48, 278, 64, 294, 240, 460, 99, 328, 60, 290, 75, 305, 79, 309, 166, 392, 219, 439, 218, 438, 237, 457, 20, 250];

/** Where the portrait lands on the canvas: canvas = portrait × scale + offset; clip = visible portrait rect. */
export interface Placement {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
  /** The part of the canvas covered by the portrait (integer pixel rect). */
  clip: { x0: number; y0: number; x1: number; y1: number };
}

export interface EyeModel {
  upper0: number[];
  upper1: number[];
  upper2: number[];
  lower0: number[];
  lower1: number[];
  /** Per upper0 point: x, y (canvas) of the lower lid at the same place, at rest. */
  closeTargetY: Float32Array;
  closeTargetX: Float32Array;
  /** Per upper0 point: how far above the resting lower lid the lids meet when closed (px). */
  meetRise: Float32Array;
  /** Per lower0 point: how far the lower lid rises in a full blink (px). */
  lowerRise: Float32Array;
}

export interface FaceModel {
  /** Total vertices (468 + rings). */
  count: number;
  /** Rest positions [x0, y0, x1, y1, …] in canvas pixels. */
  base: Float32Array;
  /** Depth per vertex (canvas pixel scale, camera-relative; rings get the oval's mean depth). */
  z: Float32Array;
  /** Warp triangles (index triples), hole triangles excluded. */
  tris: Uint32Array;
  /** Triangles spanning the inner-lip loop. */
  holeTris: Uint32Array;
  /** Per-vertex weights. */
  jawW: Float32Array;
  headW: Float32Array;
  /** Mouth-local coordinates per face vertex (u along the corner line, v down; in half mouth widths). */
  mu: Float32Array;
  mv: Float32Array;
  /** Lip roles: 0 none, 1 upper lip, 2 lower lip, 3 corner. */
  lipRole: Uint8Array;
  /** Inner-lip row: 1 upper inner, 2 lower inner (for rest closing), else 0. */
  innerRow: Uint8Array;
  /** Closing offsets per vertex (dy in canvas px along the mouth's down axis) that seal a photo's parted lips (M/B/P). */
  restCloseV: Float32Array;
  mouth: {
    /** Rest frame: origin (corner midpoint), unit axes, half width in px. */
    ox: number;
    oy: number;
    ex: [number, number];
    ey: [number, number];
    halfWidth: number;
    upperInner: number[];
    lowerInner: number[];
  };
  eyes: [EyeModel, EyeModel];
  brows: number[];
  /** Interocular distance in canvas px. */
  interocular: number;
  /** Face centre and pivot (neck) for head rotation. */
  center: [number, number];
  pivot: [number, number];
  /** Mean depth of the oval (rotation centre depth). */
  zCenter: number;
  /** Integer rect that can change between frames (bbox of the outer ring, clipped). */
  region: { x0: number; y0: number; x1: number; y1: number };
  /** Face height (forehead top to chin) in px. */
  faceHeight: number;
}

const RINGS = [
  { t: 1.14, frac: 0.45, head: 1.0, headBelow: 0.7 },
  { t: 1.32, frac: 0.75, head: 0.4, headBelow: 0.2 },
  { t: 1.55, frac: 0.985, head: 0, headBelow: 0 },
];

export function buildFaceModel(rig: AvatarRig, place: Placement): FaceModel {
  const nRing = SILHOUETTE.length;
  const count = FACE_POINTS + nRing * RINGS.length;
  const base = new Float32Array(count * 2);
  const z = new Float32Array(count);
  const sx = place.scaleX;
  const sy = place.scaleY;
  const sz = (sx + sy) / 2;
  for (let i = 0; i < FACE_POINTS; i++) {
    const p = rig.landmarks[i];
    base[i * 2] = p[0] * sx + place.offsetX;
    base[i * 2 + 1] = p[1] * sy + place.offsetY;
    z[i] = (p[2] ?? 0) * sz;
  }
  const X = (i: number) => base[i * 2];
  const Y = (i: number) => base[i * 2 + 1];

  // --- centre, rings ------------------------------------------------------------------------------
  let cx = 0;
  let cy = 0;
  let zc = 0;
  for (const i of SILHOUETTE) {
    cx += X(i);
    cy += Y(i);
    zc += z[i];
  }
  cx /= nRing;
  cy /= nRing;
  zc /= nRing;
  const chinY = Y(152);
  const topY = Y(10);
  const faceHeight = Math.hypot(X(152) - X(10), chinY - topY);
  // Canvas "down" direction of the face (roll-aware): forehead top → chin.
  const dnx = (X(152) - X(10)) / faceHeight;
  const dny = (chinY - topY) / faceHeight;

  const { x0, y0, x1, y1 } = place.clip;
  const inset = 1.5;
  for (let k = 0; k < nRing; k++) {
    const pi = SILHOUETTE[k];
    const dx = X(pi) - cx;
    const dy = Y(pi) - cy;
    // Largest t keeping the point inside the clip rect.
    let tmax = Infinity;
    if (dx > 1e-6) tmax = Math.min(tmax, (x1 - inset - cx) / dx);
    if (dx < -1e-6) tmax = Math.min(tmax, (x0 + inset - cx) / dx);
    if (dy > 1e-6) tmax = Math.min(tmax, (y1 - inset - cy) / dy);
    if (dy < -1e-6) tmax = Math.min(tmax, (y0 + inset - cy) / dy);
    tmax = Math.max(1, tmax);
    // Below the face (towards the neck) rings are tighter so the shoulders are not dragged.
    const below = Math.max(0, (dx * dnx + dy * dny) / Math.hypot(dx, dy));
    let prevT = 1;
    for (let r = 0; r < RINGS.length; r++) {
      const ring = RINGS[r];
      const want = 1 + (ring.t - 1) * (1 - 0.35 * below);
      let t = Math.min(want, 1 + (tmax - 1) * ring.frac);
      if (t < prevT + 1e-3) t = prevT + 1e-3;
      prevT = t;
      const vi = FACE_POINTS + r * nRing + k;
      base[vi * 2] = cx + dx * t;
      base[vi * 2 + 1] = cy + dy * t;
      z[vi] = zc;
    }
  }

  // --- triangles ----------------------------------------------------------------------------------
  const upperInnerMid = new Set<number>(LIPS_UPPER_INNER.slice(1, -1));
  const lowerInnerMid = new Set<number>(LIPS_LOWER_INNER.slice(1, -1));
  const tris: number[] = [];
  for (let t = 0; t < TRI468.length; t += 3) tris.push(TRI468[t], TRI468[t + 1], TRI468[t + 2]);
  const ringIdx = (r: number, k: number) => (r < 0 ? SILHOUETTE[k] : FACE_POINTS + r * nRing + k);
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
  const hole: number[] = [];
  for (let i = 0; i < LIPS_UPPER_INNER.length - 1; i++) {
    const u0 = LIPS_UPPER_INNER[i];
    const u1 = LIPS_UPPER_INNER[i + 1];
    const l0 = LIPS_LOWER_INNER[i];
    const l1 = LIPS_LOWER_INNER[i + 1];
    if (u0 !== l0) hole.push(u0, u1, l0);
    if (u1 !== l1) hole.push(u1, l1, l0);
  }
  void upperInnerMid;
  void lowerInnerMid;

  // --- mouth frame ----------------------------------------------------------------------------------
  const c0x = X(61);
  const c0y = Y(61);
  const c1x = X(291);
  const c1y = Y(291);
  const mw = Math.hypot(c1x - c0x, c1y - c0y) || 1;
  const ex: [number, number] = [(c1x - c0x) / mw, (c1y - c0y) / mw];
  const ey: [number, number] = [-ex[1], ex[0]];
  const hw = mw / 2;
  const ox = (c0x + c1x) / 2;
  const oy = (c0y + c1y) / 2;
  const mu = new Float32Array(count);
  const mv = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const dx = base[i * 2] - ox;
    const dy = base[i * 2 + 1] - oy;
    mu[i] = (dx * ex[0] + dy * ex[1]) / hw;
    mv[i] = (dx * ey[0] + dy * ey[1]) / hw;
  }

  const lipRole = new Uint8Array(count);
  const innerRow = new Uint8Array(count);
  const corners = new Set([61, 291, 78, 308, 62, 292, 76, 306]);
  for (const i of [...LIPS_UPPER_OUTER, ...LIPS_UPPER_INNER, ...LIPS_UPPER_SEMI_INNER, ...LIPS_UPPER_SEMI_OUTER]) lipRole[i] = 1;
  for (const i of [...LIPS_LOWER_OUTER, ...LIPS_LOWER_INNER, ...LIPS_LOWER_SEMI_INNER, ...LIPS_LOWER_SEMI_OUTER]) lipRole[i] = 2;
  for (const i of corners) lipRole[i] = 3;
  for (const i of upperInnerMid) innerRow[i] = 1;
  for (const i of lowerInnerMid) innerRow[i] = 2;

  // --- jaw weights ----------------------------------------------------------------------------------
  const jawW = new Float32Array(count);
  const lateral = (u: number) => {
    const e = Math.max(0, Math.abs(u) - 0.4) / 0.9;
    return 1 / (1 + e * e);
  };
  for (let i = 0; i < FACE_POINTS; i++) {
    const u = mu[i];
    const v = mv[i];
    if (lipRole[i] === 1) jawW[i] = 0;
    else if (lipRole[i] === 3) jawW[i] = 0.18;
    else if (lipRole[i] === 2) {
      const uu = Math.min(1, Math.abs(u));
      jawW[i] = 0.18 + 0.82 * Math.pow(1 - uu * uu, 1.3);
    } else jawW[i] = smoothstep(-0.05, 0.45, v) * lateral(u);
  }
  // Points below the lower lip must not move less than the lip above them (no fold-over).
  for (let i = 0; i < FACE_POINTS; i++) {
    if (lipRole[i] !== 0) continue;
    if (mv[i] > 0.3 && Math.abs(mu[i]) < 0.9) jawW[i] = Math.max(jawW[i], 0.18 + 0.82 * Math.pow(1 - mu[i] * mu[i], 1.3));
  }
  // The upper face never follows the jaw, except a little: the cheeks beside the mouth and the nostrils.
  for (let i = 0; i < FACE_POINTS; i++) {
    if (!(mv[i] < -0.05 && lipRole[i] !== 2) || lipRole[i] === 3) continue;
    jawW[i] = Math.abs(mu[i]) > 1.1 ? 0.07 * smoothstep(-0.9, -0.1, mv[i]) : 0;
  }
  for (const i of NOSE_BASE) jawW[i] = Math.max(jawW[i], 0.03);
  // Anchor rings under the jaw follow it partly, so the skin under the chin stretches/compresses
  // smoothly over a band instead of folding at the chin line.
  const RING_JAW = [0.6, 0.22, 0];
  for (let r = 0; r < RINGS.length; r++) {
    for (let k = 0; k < nRing; k++) jawW[FACE_POINTS + r * nRing + k] = jawW[SILHOUETTE[k]] * RING_JAW[r];
  }

  // --- rest closing of an open photo mouth ------------------------------------------------------
  const restCloseV = new Float32Array(count);
  const maxClose = 0.24 * hw;
  for (let k = 1; k < LIPS_UPPER_INNER.length - 1; k++) {
    const ui = LIPS_UPPER_INNER[k];
    const li = LIPS_LOWER_INNER[k];
    const gap = Math.max(0, (mv[li] - mv[ui]) * hw);
    const close = Math.min(gap, maxClose);
    restCloseV[ui] = close / 2;
    restCloseV[li] = -close / 2;
  }
  // Outer lip rows follow their inner rows a little so the lips keep their thickness.
  const follow = (outer: readonly number[], inner: readonly number[], f: number) => {
    for (let k = 1; k < outer.length - 1; k++) {
      const o = outer[k];
      const ii = inner[Math.min(inner.length - 1, k)];
      if (restCloseV[o] === 0) restCloseV[o] = restCloseV[ii] * f;
    }
  };
  follow(LIPS_UPPER_SEMI_INNER, LIPS_UPPER_INNER, 0.7);
  follow(LIPS_LOWER_SEMI_INNER, LIPS_LOWER_INNER, 0.7);
  follow(LIPS_LOWER_SEMI_OUTER, LIPS_LOWER_INNER, 0.4);

  // --- head weights ------------------------------------------------------------------------------
  const headW = new Float32Array(count);
  for (let i = 0; i < FACE_POINTS; i++) headW[i] = 1;
  for (let r = 0; r < RINGS.length; r++) {
    for (let k = 0; k < nRing; k++) {
      const vi = FACE_POINTS + r * nRing + k;
      const dx = base[vi * 2] - cx;
      const dy = base[vi * 2 + 1] - cy;
      const below = Math.max(0, (dx * dnx + dy * dny) / (Math.hypot(dx, dy) || 1));
      headW[vi] = RINGS[r].head + (RINGS[r].headBelow - RINGS[r].head) * smoothstep(0.3, 0.9, below);
    }
  }

  // --- eyes ------------------------------------------------------------------------------------------
  const eye = (upper0: readonly number[], upper1: readonly number[], upper2: readonly number[], lower0: readonly number[], lower1: readonly number[]): EyeModel => {
    const closeTargetY = new Float32Array(upper0.length);
    const closeTargetX = new Float32Array(upper0.length);
    const meetRise = new Float32Array(upper0.length);
    const lowerRise = new Float32Array(lower0.length);
    // Lower lid as a polyline in the eye's own axis (corner to corner).
    const a = lower0[0];
    const b = lower0[lower0.length - 1];
    const axx = X(b) - X(a);
    const axy = Y(b) - Y(a);
    const len = Math.hypot(axx, axy) || 1;
    const ux = axx / len;
    const uy = axy / len;
    const proj = (i: number) => (X(i) - X(a)) * ux + (Y(i) - Y(a)) * uy;
    const lowerPts = lower0.map((i) => ({ t: proj(i), x: X(i), y: Y(i) })).sort((p, q) => p.t - q.t);
    upper0.forEach((ui, j) => {
      const t = proj(ui);
      let k = 0;
      while (k < lowerPts.length - 2 && lowerPts[k + 1].t < t) k++;
      const p = lowerPts[k];
      const q = lowerPts[k + 1];
      const f = Math.min(1, Math.max(0, (t - p.t) / (q.t - p.t || 1)));
      // Closed lid line: a little above the lower lid.
      const lx = p.x + (q.x - p.x) * f;
      const ly = p.y + (q.y - p.y) * f;
      closeTargetX[j] = lx;
      closeTargetY[j] = ly;
      meetRise[j] = LOWER_LID_RISE * Math.max(0, ly - Y(ui));
    });
    // Lower-lid rise per lower point: a share of the opening above it (upper lid interpolated at its place).
    const upperPts = upper0.map((i) => ({ t: proj(i), y: Y(i) })).sort((p, q) => p.t - q.t);
    lower0.forEach((li, j) => {
      const t = proj(li);
      if (t <= upperPts[0].t || t >= upperPts[upperPts.length - 1].t) return;
      let k = 0;
      while (k < upperPts.length - 2 && upperPts[k + 1].t < t) k++;
      const f = (t - upperPts[k].t) / (upperPts[k + 1].t - upperPts[k].t || 1);
      const uy = upperPts[k].y + (upperPts[k + 1].y - upperPts[k].y) * f;
      lowerRise[j] = LOWER_LID_RISE * Math.max(0, Y(li) - uy);
    });
    return { upper0: [...upper0], upper1: [...upper1], upper2: [...upper2], lower0: [...lower0], lower1: [...lower1], closeTargetX, closeTargetY, meetRise, lowerRise };
  };
  const eyes: [EyeModel, EyeModel] = [
    eye(RIGHT_EYE_UPPER0, RIGHT_EYE_UPPER1, RIGHT_EYE_UPPER2, RIGHT_EYE_LOWER0, RIGHT_EYE_LOWER1),
    eye(LEFT_EYE_UPPER0, LEFT_EYE_UPPER1, LEFT_EYE_UPPER2, LEFT_EYE_LOWER0, LEFT_EYE_LOWER1),
  ];

  // --- region ------------------------------------------------------------------------------------
  let rx0 = Infinity;
  let ry0 = Infinity;
  let rx1 = -Infinity;
  let ry1 = -Infinity;
  for (let i = 0; i < count; i++) {
    rx0 = Math.min(rx0, base[i * 2]);
    ry0 = Math.min(ry0, base[i * 2 + 1]);
    rx1 = Math.max(rx1, base[i * 2]);
    ry1 = Math.max(ry1, base[i * 2 + 1]);
  }
  const region = {
    x0: Math.max(x0, Math.floor(rx0) - 1),
    y0: Math.max(y0, Math.floor(ry0) - 1),
    x1: Math.min(x1, Math.ceil(rx1) + 1),
    y1: Math.min(y1, Math.ceil(ry1) + 1),
  };

  const interocular = Math.hypot(X(263) - X(33), Y(263) - Y(33));
  const pivot: [number, number] = [X(152) + dnx * faceHeight * 0.35, chinY + dny * faceHeight * 0.35];
  return {
    count,
    base,
    z,
    tris: Uint32Array.from(tris),
    holeTris: Uint32Array.from(hole),
    jawW,
    headW,
    mu,
    mv,
    lipRole,
    innerRow,
    restCloseV,
    mouth: { ox, oy, ex, ey, halfWidth: hw, upperInner: [...LIPS_UPPER_INNER], lowerInner: [...LIPS_LOWER_INNER] },
    eyes,
    brows: [...RIGHT_EYEBROW, ...LEFT_EYEBROW],
    interocular,
    center: [cx, cy],
    pivot,
    zCenter: zc,
    region,
    faceHeight,
  };
}
