/**
 * A guard against one misplaced eye (docs/animation.md, "Blinks up close"). FaceMesh sometimes fits one eye
 * far too small and off the real one (the teeth sample portrait: a contour half the other eye's width, on
 * the lower half of the iris); a blink then stretches that eye's white and iris into streaks and never
 * covers it. Faces are near-symmetric: when one eye's contour is much narrower than the other's, its rows
 * are replaced by the other eye's, mirrored in 3D across the face's plane of symmetry (found from the lower
 * face's left/right pairs, away from the eyes whose neighbourhood FaceMesh may have misfitted too), so a
 * turned head's foreshortening is followed.
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

/** Left/right pairs of the lower face: mouth corners, cheeks, face sides, jaw. */
const PAIRS = [
  [61, 291],
  [205, 425],
  [50, 280],
  [234, 454],
  [132, 361],
  [58, 288],
  [172, 397],
  [136, 365],
  [93, 323],
  [177, 401],
];
/** Midline points from forehead to chin (nose bridge, nose, lips' centres). */
const MIDLINE = [10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 2, 164, 0, 17, 18, 200, 199, 175, 152];
/**
 * An eye narrower than this share of the other one is taken as misplaced. Near the accepted yaw limit (30°)
 * a correctly fitted far eye can narrow to ≈ 0.65 too; the 3D mirror then reproduces that foreshortened
 * eye, so such a misfire swaps a good fit for a close estimate rather than a wrong one.
 */
export const EYE_WIDTH_RATIO = 0.7;

const RIGHT = [RIGHT_EYE_UPPER0, RIGHT_EYE_LOWER0, RIGHT_EYE_UPPER1, RIGHT_EYE_LOWER1, RIGHT_EYE_UPPER2].flat();
const LEFT = [LEFT_EYE_UPPER0, LEFT_EYE_LOWER0, LEFT_EYE_UPPER1, LEFT_EYE_LOWER1, LEFT_EYE_UPPER2].flat();

/** Replace a misplaced eye's rows in `base` (x, y pairs; `z` depth) by the mirrored other eye; returns which one (or undefined). */
export function repairMisplacedEye(base: Float32Array, z: Float32Array): "right" | "left" | undefined {
  const width = (a: number, b: number) => Math.hypot(base[a * 2] - base[b * 2], base[a * 2 + 1] - base[b * 2 + 1]);
  const wr = width(33, 133);
  const wl = width(263, 362);
  if (Math.min(wr, wl) >= EYE_WIDTH_RATIO * Math.max(wr, wl)) return undefined;
  const [from, to] = wr > wl ? [RIGHT, LEFT] : [LEFT, RIGHT];
  const P = (i: number) => [base[i * 2], base[i * 2 + 1], z[i]];
  // Plane of symmetry: normal along the mean right→left pair vector, through the midline's centroid.
  const n = [0, 0, 0];
  for (const [r, l] of PAIRS) for (let d = 0; d < 3; d++) n[d] += P(l)[d] - P(r)[d];
  const len = Math.hypot(n[0], n[1], n[2]) || 1;
  for (let d = 0; d < 3; d++) n[d] /= len;
  const c = [0, 0, 0];
  for (const i of MIDLINE) for (let d = 0; d < 3; d++) c[d] += P(i)[d] / MIDLINE.length;
  for (let k = 0; k < from.length; k++) {
    const p = P(from[k]);
    const dist = (p[0] - c[0]) * n[0] + (p[1] - c[1]) * n[1] + (p[2] - c[2]) * n[2];
    base[to[k] * 2] = p[0] - 2 * dist * n[0];
    base[to[k] * 2 + 1] = p[1] - 2 * dist * n[1];
    z[to[k]] = p[2] - 2 * dist * n[2];
  }
  return wr > wl ? "left" : "right";
}
