/**
 * Expressions drawn on the photo's face by moving its own mesh (nothing is painted): the mouth corners and
 * cheeks, the brows and the lids (docs/performance.md). Each expression is a set of displacements at full
 * intensity; a pose blends them by their weights, so an eased change between two expressions is smooth.
 * Units: the mouth in half mouth widths, the brows in interocular distances, the lids in shares of the eye's
 * opening (eyelids.ts `LidShape`).
 */
import { smoothstep } from "@avatar-video/motion-model";
import type { LidShape } from "./eyelids";

/** How much of each drawn expression shows, 0..1 (motion-model `ExpressionWeights`). */
export interface ExpressionWeights {
  happy: number;
  serious: number;
  surprised: number;
  sad: number;
}

export interface ExpressionShape {
  /** Mouth corners up (down when negative), and out (in when negative). */
  cornerUp: number;
  cornerOut: number;
  /** Cheeks beside the mouth and nose up (a smile's cheek raise). */
  cheekUp: number;
  /** The lower lip's middle up (a pout). */
  lowerLipUp: number;
  /** Share of the photo's own smile taken out: its corners brought down to its lips' middle. */
  levelSmile: number;
  /** Share of a parted photo mouth closed at rest (with the closing offsets of M/B/P). */
  closeLips: number;
  /** Share of the smile's relaxing while speaking that is held back (a smile that stays). */
  holdSmile: number;
  /** Brows up (down when negative); their inner ends up by a further `browInnerUp`, and in by `browIn`. */
  browUp: number;
  browInnerUp: number;
  browIn: number;
  lids: LidShape;
}

/** Each expression at intensity 1; lower intensities scale them (lip closing: see `expressionShape`). */
const SHAPES: Record<keyof ExpressionWeights, ExpressionShape> = {
  // A smile that reaches the eyes: corners up and out, cheeks up, the lower lids pushed up a little.
  happy: {
    cornerUp: 0.2,
    cornerOut: 0.07,
    cheekUp: 0.07,
    lowerLipUp: 0,
    levelSmile: 0,
    closeLips: 0,
    holdSmile: 1,
    browUp: 0,
    browInnerUp: 0,
    browIn: 0,
    lids: { upper: 0.04, lower: 0.2 },
  },
  // Level corners, lips together over a smile's teeth, brows a little lower and drawn in.
  serious: {
    cornerUp: -0.02,
    cornerOut: -0.03,
    cheekUp: 0,
    lowerLipUp: 0.02,
    levelSmile: 0.7,
    closeLips: 1,
    holdSmile: 1,
    browUp: -0.045,
    browInnerUp: -0.03,
    browIn: 0.015,
    lids: { upper: 0.06, lower: 0.06 },
  },
  // Brows up, eyes wider.
  surprised: {
    cornerUp: 0,
    cornerOut: -0.03,
    cheekUp: 0,
    lowerLipUp: 0,
    levelSmile: 0,
    closeLips: 0,
    holdSmile: 0,
    browUp: 0.1,
    browInnerUp: 0.01,
    browIn: 0,
    lids: { upper: -0.1, lower: -0.03 },
  },
  // Corners down, the lower lip's middle up a little, inner brows up, lids a little heavy.
  sad: {
    cornerUp: -0.15,
    cornerOut: -0.02,
    cheekUp: 0,
    lowerLipUp: 0.04,
    levelSmile: 0.8,
    closeLips: 1,
    holdSmile: 0,
    browUp: -0.035,
    browInnerUp: 0.13,
    browIn: 0.008,
    lids: { upper: 0.1, lower: 0 },
  },
};

const NAMES = Object.keys(SHAPES) as (keyof ExpressionWeights)[];

/** The blended shape of a pose's weights, or undefined when no expression shows (the photo's own face). */
export function expressionShape(w: ExpressionWeights | undefined): ExpressionShape | undefined {
  if (!w || NAMES.every((n) => !(w[n] > 0))) return undefined;
  const out: ExpressionShape = {
    cornerUp: 0,
    cornerOut: 0,
    cheekUp: 0,
    lowerLipUp: 0,
    levelSmile: 0,
    closeLips: 0,
    holdSmile: 0,
    browUp: 0,
    browInnerUp: 0,
    browIn: 0,
    lids: { upper: 0, lower: 0 },
  };
  for (const name of NAMES) {
    const k = Math.min(1, Math.max(0, w[name] || 0));
    if (k === 0) continue;
    const s = SHAPES[name];
    out.cornerUp += s.cornerUp * k;
    out.cornerOut += s.cornerOut * k;
    out.cheekUp += s.cheekUp * k;
    out.lowerLipUp += s.lowerLipUp * k;
    // Lips over a smile's teeth: closed by intensity 0.6 (half-closed teeth read as a grimace).
    out.closeLips += s.closeLips * smoothstep(0, 0.6, k);
    out.levelSmile += s.levelSmile * smoothstep(0, 0.6, k);
    out.holdSmile += s.holdSmile * k;
    out.browUp += s.browUp * k;
    out.browInnerUp += s.browInnerUp * k;
    out.browIn += s.browIn * k;
    out.lids.upper += s.lids.upper * k;
    out.lids.lower += s.lids.lower * k;
  }
  out.closeLips = Math.min(1, out.closeLips);
  out.levelSmile = Math.min(1, out.levelSmile);
  out.holdSmile = Math.min(1, out.holdSmile);
  return out;
}

/**
 * The mouth and cheek displacement of a face point at mouth coordinates (u, v) (half mouth widths; u along
 * the corner line, v down), in half mouth widths: [du, dv]. `smile` is the photo's own (face-model).
 */
export function mouthShift(x: ExpressionShape, u: number, v: number, smile: number): [number, number] {
  const au = Math.abs(u);
  // Along the mouth: 0 in the middle, 1 at the corners, fading over the cheeks beyond them (as in deform.ts).
  const along = au <= 1 ? u : Math.sign(u) * Math.max(0, 1 - (au - 1) / 1.3);
  const across = Math.exp(-(v / 0.8) * (v / 0.8));
  const corner = along * along * across;
  // Corners up/down, levelled by the photo's smile (its corners sit `smile` above the lips' middle).
  let dv = -(x.cornerUp - x.levelSmile * smile) * corner;
  let du = x.cornerOut * along * across;
  // The lower lip's middle (a pout), fading towards the corners and down the chin.
  if (x.lowerLipUp !== 0 && v > 0) dv -= x.lowerLipUp * Math.max(0, 1 - au * au) * Math.exp(-(((v - 0.3) / 0.5) ** 2));
  // Cheeks: beside the mouth and up to under the eyes, not the nose or the lips themselves.
  if (x.cheekUp !== 0) {
    const side = smoothstep(0.55, 1.15, au) * (1 - smoothstep(2.0, 2.8, au));
    const height = Math.exp(-(((v + 0.7) / 0.9) ** 2));
    dv -= x.cheekUp * side * height;
    du += 0.3 * x.cheekUp * Math.sign(u) * side * height;
  }
  return [du, dv];
}
