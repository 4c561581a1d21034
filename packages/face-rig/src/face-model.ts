/**
 * The animation mesh for one portrait placed on the output canvas.
 *
 * Vertices: the 468 FaceMesh points (canvas pixels) followed by three rings of anchor points around the
 * face (anchor-rings.ts) so everything outside the outer ring (background, shoulders) stays put.
 * Triangles: TRI468 (face, including the eye openings) + quad strips between the oval and the rings.
 * The inner-lip loop is triangulated separately ("hole" triangles, mouth-rig.ts); those pixels are covered
 * by the synthesised mouth interior. Per-vertex weights say how much each point follows the jaw and the head.
 */
import type { AvatarRig } from "@avatar-video/contract";
import {
  headWeights,
  placeAnchorRings,
  pushRingTriangles,
  RING_VERTICES,
  setRingJawWeights,
  type FaceAxes,
} from "./anchor-rings";
import { buildEyeMeshes, EYE_GRID_VERTICES, type EyeModel } from "./eyelids";
import { type BrowField, buildBrowField } from "./brow-field";
import { repairMisplacedEye } from "./eye-symmetry";
import {
  FACE_POINTS,
  LEFT_EYEBROW,
  LIPS_LOWER_INNER,
  LIPS_UPPER_INNER,
  RIGHT_EYEBROW,
  SILHOUETTE,
  TRI468,
} from "./facemesh-topology";
import {
  buildMouthRig,
  faceJawWeights,
  heldClosingOffsets,
  pressExcessOffsets,
  restClosingOffsets,
  smileLift,
  tuckOffsets,
} from "./mouth-rig";

export { FACE_POINTS };
export type { EyeModel };

/** Where the portrait lands on the canvas: canvas = portrait × scale + offset; clip = visible portrait rect. */
export interface Placement {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
  /** The part of the canvas covered by the portrait (integer pixel rect). */
  clip: { x0: number; y0: number; x1: number; y1: number };
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
  /** The same, closing a parted photo mouth all the way (an expression's closed mouth). */
  fullCloseV: Float32Array;
  /** The same closing's movement along the corner line (px): the inner-lip pairs meet at their midpoints. */
  fullCloseU: Float32Array;
  /** What a full press closes beyond restCloseV on a photo whose lips are apart by more than its cap (v, px). */
  pressCloseV: Float32Array;
  /** That closing's movement along the corner line (px). */
  pressCloseU: Float32Array;
  /** F/V offsets per vertex (dy in canvas px along the mouth's down axis at tuck = 1). */
  tuckV: Float32Array;
  mouth: {
    /** Rest frame: origin (corner midpoint), unit axes, half width in px. */
    ox: number;
    oy: number;
    ex: [number, number];
    ey: [number, number];
    halfWidth: number;
    /** The photo's smile: inner-lip centre below the corner line, in half mouth widths. */
    smile: number;
    upperInner: number[];
    lowerInner: number[];
  };
  eyes: [EyeModel, EyeModel];
  brows: number[];
  /** The brows and the skin around them that an expression moves (expression.ts). */
  browField: BrowField;
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

export function buildFaceModel(rig: AvatarRig, place: Placement): FaceModel {
  // Eye grids (eyelids.ts) come after the anchor rings.
  const eyeFirst = FACE_POINTS + RING_VERTICES;
  const count = eyeFirst + EYE_GRID_VERTICES;
  const { base, z } = placeLandmarks(rig, place, count);
  repairMisplacedEye(base, z);
  const X = (i: number) => base[i * 2];
  const Y = (i: number) => base[i * 2 + 1];
  const faceHeight = Math.hypot(X(152) - X(10), Y(152) - Y(10));
  const axes = faceAxes(base, z, faceHeight);
  placeAnchorRings(base, z, axes, place.clip);

  const eyeMeshes = buildEyeMeshes(base, z, eyeFirst);
  const tris: number[] = [];
  for (let t = 0; t < TRI468.length; t += 3) {
    if (!eyeMeshes.replaced(TRI468[t], TRI468[t + 1], TRI468[t + 2]))
      tris.push(TRI468[t], TRI468[t + 1], TRI468[t + 2]);
  }
  tris.push(...eyeMeshes.tris);
  pushRingTriangles(tris);

  const mouth = buildMouthRig(base, count);
  const held = heldClosingOffsets(mouth, count);
  const excess = pressExcessOffsets(mouth, count);
  const jawW = faceJawWeights(mouth, count);
  setRingJawWeights(jawW);

  return {
    count,
    base,
    z,
    tris: Uint32Array.from(tris),
    holeTris: Uint32Array.from(mouth.holeTris),
    jawW,
    headW: headWeights(base, count, axes).fill(1, eyeFirst, count),
    mu: mouth.mu,
    mv: mouth.mv,
    lipRole: mouth.lipRole,
    innerRow: mouth.innerRow,
    restCloseV: restClosingOffsets(mouth, count),
    fullCloseV: held.v,
    fullCloseU: held.u,
    pressCloseV: excess.v,
    pressCloseU: excess.u,
    tuckV: tuckOffsets(mouth, count),
    mouth: {
      ...mouth.frame,
      smile: smileLift(mouth),
      upperInner: [...LIPS_UPPER_INNER],
      lowerInner: [...LIPS_LOWER_INNER],
    },
    eyes: eyeMeshes.eyes,
    brows: [...RIGHT_EYEBROW, ...LEFT_EYEBROW],
    browField: buildBrowField(base, eyeMeshes.eyes),
    interocular: Math.hypot(X(263) - X(33), Y(263) - Y(33)),
    center: [axes.cx, axes.cy],
    // The pivot sits on the neck, below the chin.
    pivot: [X(152) + axes.dnx * faceHeight * 0.35, Y(152) + axes.dny * faceHeight * 0.35],
    zCenter: axes.zc,
    region: changingRegion(base, count, place.clip),
    faceHeight,
  };
}

/** The 468 landmarks in canvas pixels (depth on the same scale); ring slots are filled later. */
function placeLandmarks(rig: AvatarRig, place: Placement, count: number): { base: Float32Array; z: Float32Array } {
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
  return { base, z };
}

/** Mean of the face oval, and the canvas "down" direction of the face (roll-aware): forehead top → chin. */
function faceAxes(base: Float32Array, z: Float32Array, faceHeight: number): FaceAxes {
  let cx = 0;
  let cy = 0;
  let zc = 0;
  for (const i of SILHOUETTE) {
    cx += base[i * 2];
    cy += base[i * 2 + 1];
    zc += z[i];
  }
  cx /= SILHOUETTE.length;
  cy /= SILHOUETTE.length;
  zc /= SILHOUETTE.length;
  const dnx = (base[152 * 2] - base[10 * 2]) / faceHeight;
  const dny = (base[152 * 2 + 1] - base[10 * 2 + 1]) / faceHeight;
  return { cx, cy, zc, dnx, dny };
}

/** Bounding box of all vertices (the outer ring is fixed), one pixel of margin, inside the portrait's clip. */
function changingRegion(base: Float32Array, count: number, clip: Placement["clip"]): Placement["clip"] {
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
  return {
    x0: Math.max(clip.x0, Math.floor(rx0) - 1),
    y0: Math.max(clip.y0, Math.floor(ry0) - 1),
    x1: Math.min(clip.x1, Math.ceil(rx1) + 1),
    y1: Math.min(clip.y1, Math.ceil(ry1) + 1),
  };
}
