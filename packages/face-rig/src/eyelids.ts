/**
 * Where each eye's lids meet in a blink, measured once on the rest mesh: the upper lid travels to (just
 * below) the lower lid's line at the same place along the eye, and the lower lid gives a little.
 */
import {
  LEFT_EYE_LOWER0,
  LEFT_EYE_LOWER1,
  LEFT_EYE_UPPER0,
  LEFT_EYE_UPPER1,
  LEFT_EYE_UPPER2,
  RIGHT_EYE_LOWER0,
  RIGHT_EYE_LOWER1,
  RIGHT_EYE_UPPER0,
  RIGHT_EYE_UPPER1,
  RIGHT_EYE_UPPER2,
} from "./facemesh-topology";

/**
 * Share of the eye opening by which the lids meet *below* the resting lower-lid points in a blink: FaceMesh's
 * lower-lid points sit on the waterline with a sliver of sclera under them, so the upper lid closes over it
 * and the lower lid is pushed down a little (its skin band compresses) instead of rising.
 */
const LOWER_LID_RISE = -0.16;

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

/** Right eye, then left eye, from rest positions `base` ([x0, y0, x1, y1, …] in canvas px). */
export function buildEyeModels(base: Float32Array): [EyeModel, EyeModel] {
  return [
    eyeModel(base, RIGHT_EYE_UPPER0, RIGHT_EYE_UPPER1, RIGHT_EYE_UPPER2, RIGHT_EYE_LOWER0, RIGHT_EYE_LOWER1),
    eyeModel(base, LEFT_EYE_UPPER0, LEFT_EYE_UPPER1, LEFT_EYE_UPPER2, LEFT_EYE_LOWER0, LEFT_EYE_LOWER1),
  ];
}

function eyeModel(
  base: Float32Array,
  upper0: readonly number[],
  upper1: readonly number[],
  upper2: readonly number[],
  lower0: readonly number[],
  lower1: readonly number[],
): EyeModel {
  const X = (i: number) => base[i * 2];
  const Y = (i: number) => base[i * 2 + 1];
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
    const upperY = upperPts[k].y + (upperPts[k + 1].y - upperPts[k].y) * f;
    lowerRise[j] = LOWER_LID_RISE * Math.max(0, Y(li) - upperY);
  });
  return { upper0: [...upper0], upper1: [...upper1], upper2: [...upper2], lower0: [...lower0], lower1: [...lower1], closeTargetX, closeTargetY, meetRise, lowerRise };
}
