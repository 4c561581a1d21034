/**
 * Per-frame vertex positions from animation parameters (pure arithmetic on ~580 points).
 */
import type { FaceModel } from "./face-model";
import { FACE_POINTS } from "./face-model";
import { smoothstep } from "@avatar-video/motion-model";
import { moveLids } from "./eyelids";
import { expressionShape, mouthShift, type ExpressionWeights } from "./expression";
import { LOOP_CORNERS, PRESS_FLATTEN, partedShare } from "./mouth-rig";

export interface FacePose {
  /** Jaw/lip opening 0..1. */
  open: number;
  /** Lip spread 0..1 (EE). */
  spread: number;
  /** Lip rounding 0..1 (OO). */
  round: number;
  /** Lip press 0..1 (M/B/P). */
  press: number;
  /** Lower lip under the upper teeth 0..1 (F/V). */
  tuck: number;
  /** How much of the photo's smile relaxes while speaking, 0..1. */
  relax: number;
  /** Eye closure 0..1 per eye (0 open, 1 closed). */
  blinkR: number;
  blinkL: number;
  /** Brow raise 0..1. */
  brow: number;
  /** Head rotation in degrees (yaw: turn, pitch: nod, roll: tilt) and translation in px. */
  yaw: number;
  pitch: number;
  roll: number;
  tx: number;
  ty: number;
  /** The expression drawn on the face (expression.ts); absent or all 0: the photo's own. */
  expression?: ExpressionWeights;
}

export const NEUTRAL_POSE: FacePose = {
  open: 0,
  spread: 0,
  round: 0,
  press: 0,
  tuck: 0,
  relax: 0,
  blinkR: 0,
  blinkL: 0,
  brow: 0,
  yaw: 0,
  pitch: 0,
  roll: 0,
  tx: 0,
  ty: 0,
};

/**
 * How far rounding closes a photo's parted lips (share of the closing that seals them on M/B/P), at the sides
 * and in the middle: a smile showing its teeth purses to a small opening, its corners covered by the lips.
 */
const ROUND_CLOSE_SIDES = 0.9;
const ROUND_CLOSE_MIDDLE = 0.4;
const PURSE_IN = 0.06;

/** Share of an expression's lip closing let go at a wide-open jaw (a vowel's opening). */
const HELD_RELEASE = 0.35;

/** Maximum lower-lip drop at open = 1, in half mouth widths. */
const JAW_MAX = 0.55;

/** Compute vertex positions for a pose into `out` (length 2 × count). */
export function deform(m: FaceModel, pose: FacePose, out: Float32Array): Float32Array {
  const { base, count, mu, mv, jawW, lipRole, restCloseV, tuckV } = m;
  const hw = m.mouth.halfWidth;
  const [ex0, ex1] = m.mouth.ex;
  const [ey0, ey1] = m.mouth.ey;
  out.set(base);

  // --- mouth --------------------------------------------------------------------------------------
  const press = Math.min(1, Math.max(0, pose.press));
  const open = Math.max(0, pose.open) * (1 - press);
  const J = open * JAW_MAX * hw;
  const spread = pose.spread;
  const round = pose.round;
  const tuck = Math.min(1, Math.max(0, pose.tuck)) * (1 - press);
  const x = expressionShape(pose.expression);
  // A smiling photo's corners come in and down while speaking (relaxed smile), back in the pauses; a happy
  // or serious expression holds them where it puts them.
  let relax = Math.min(1, Math.max(0, pose.relax)) * m.mouth.smile;
  if (x) relax *= 1 - x.holdSmile;
  // Lips an expression holds closed part again as the jaw opens: a closed mouth speaks through an opening
  // of its own, not through a slit the jaw alone makes.
  const release = smoothstep(0.05, 0.6, open);
  const held = x && x.closeLips > 0 ? x.closeLips * (1 - HELD_RELEASE * release) : 0;
  // Lips apart at rest (a smile showing its teeth) purse further in: the corners cover the side teeth.
  const parted = partedShare(mv);
  // Such lips also close faster with the press (half a press covers most of the teeth) and meet at a full
  // one: pressCloseV carries them past restCloseV's cap.
  const pc = press + parted * press * (1 - press);
  const horiz = 0.1 * spread - (0.26 + PURSE_IN * parted) * round - 0.35 * relax;
  for (let i = 0; i < FACE_POINTS; i++) {
    const u = mu[i];
    const v = mv[i];
    let du = 0;
    // A photo with parted lips stays as it is at rest; only a closure (M/B/P) brings its lips together.
    // Rounding purses a photo's parted lips: they close at the sides, less in the middle.
    const sides = smoothstep(0.2, 0.75, Math.abs(u));
    const purse = round * (1 - press) * (ROUND_CLOSE_MIDDLE + (ROUND_CLOSE_SIDES - ROUND_CLOSE_MIDDLE) * sides);
    const closeV = restCloseV[i] * (pc + purse) + m.pressCloseV[i] * pc;
    let dv = closeV + tuckV[i] * tuck;
    du += m.pressCloseU[i] * pc;
    // An expression may close a parted photo mouth at rest, all the way; speech opens it from there.
    if (held > 0) {
      dv += (m.fullCloseV[i] - closeV) * held;
      du += (m.fullCloseU[i] - m.pressCloseU[i] * pc) * held;
    }
    const role = lipRole[i];
    // Jaw.
    let jw = jawW[i];
    if (role === 2 && round > 0) jw *= 1 - 0.45 * round * Math.min(1, u * u); // rounded opening is narrower
    dv += J * jw;
    // Upper lip lifts a little with wide opening (shows the upper teeth).
    if (role === 1) {
      const prof = Math.max(0, 1 - u * u);
      dv -= J * 0.12 * prof;
      // Rounding pushes the lips out (fuller in 2D); pressing flattens them.
      dv -= 0.05 * hw * round * prof;
      dv += PRESS_FLATTEN * hw * pc * prof;
    } else if (role === 2) {
      const prof = Math.max(0, 1 - u * u);
      dv += 0.05 * hw * round * prof;
      dv -= PRESS_FLATTEN * hw * pc * prof;
    }
    // Corners in/out (and down as a smile relaxes); fades out over the cheeks and vertically.
    if (horiz !== 0) {
      const au = Math.abs(u);
      const g = au <= 1 ? u : Math.sign(u) * Math.max(0, 1 - (au - 1) / 1.3);
      const h = Math.exp(-(v / 0.8) * (v / 0.8));
      du += horiz * g * h * hw;
      dv += 0.4 * relax * g * g * h * hw;
    }
    if (x) {
      // Lips held closed take the shift of where they closed to: both rows of a pair get the same one, so
      // the smile's levelling cannot part them again (a broad smile's lower lip lies far below the corners).
      const [eu, ev] =
        held > 0
          ? mouthShift(x, u + (m.fullCloseU[i] * held) / hw, v + (m.fullCloseV[i] * held) / hw, m.mouth.smile)
          : mouthShift(x, u, v, m.mouth.smile);
      du += eu * hw;
      dv += ev * hw;
    }
    if (du !== 0 || dv !== 0) {
      out[i * 2] += du * ex0 + dv * ey0;
      out[i * 2 + 1] += du * ex1 + dv * ey1;
    }
  }
  // Closed lips (a press, an expression's held mouth until the jaw opens) meet up to the commissures: the
  // inner-lip loop's corners close onto them. A smile's opening runs past the mesh's inner corner (the teeth
  // portrait: 0.1 half widths); left outside the loop, that tip stayed open beside the sealed lips, a light fleck.
  const shut = x ? x.closeLips * (1 - release) : 0;
  const meet = parted * (1 - (1 - pc) * (1 - shut));
  if (meet > 0)
    for (const [inner, outer] of LOOP_CORNERS) {
      out[inner * 2] += (out[outer * 2] - out[inner * 2]) * meet;
      out[inner * 2 + 1] += (out[outer * 2 + 1] - out[inner * 2 + 1]) * meet;
    }
  // Anchor rings: jaw only.
  if (J > 0) {
    for (let i = FACE_POINTS; i < count; i++) {
      const jw = jawW[i];
      if (jw === 0) continue;
      out[i * 2] += J * jw * ey0;
      out[i * 2 + 1] += J * jw * ey1;
    }
  }

  // --- eyes ---------------------------------------------------------------------------------------
  // The upper lid sweeps down over the eye with its lashes, the lid skin above unfolds evenly, the lower lid
  // rises a little; at closure the eye opening (and a margin around it) has collapsed (eyelids.ts).
  const blinks = [pose.blinkR, pose.blinkL];
  for (let e = 0; e < 2; e++) {
    const c = Math.min(1, blinks[e]);
    if (c > 0 || x) moveLids(m.eyes[e], Math.max(0, c), out, x?.lids);
  }

  // --- brows ---------------------------------------------------------------------------------------
  if (pose.brow > 0) {
    const lift = pose.brow * 0.045 * m.interocular;
    for (const i of m.brows) out[i * 2 + 1] -= lift;
    for (const eye of m.eyes) for (const i of eye.upper2) out[i * 2 + 1] -= lift * 0.35;
  }
  if (x) moveBrows(m, x.browUp, x.browInnerUp, x.browIn, out);

  // --- head ----------------------------------------------------------------------------------------
  const { headW, z } = m;
  const yaw = (pose.yaw * Math.PI) / 180;
  const pitch = (pose.pitch * Math.PI) / 180;
  const roll = (pose.roll * Math.PI) / 180;
  if (yaw !== 0 || pitch !== 0 || roll !== 0 || pose.tx !== 0 || pose.ty !== 0) {
    const [px, py] = m.pivot;
    const zc = m.zCenter;
    for (let i = 0; i < count; i++) {
      const w = headW[i];
      if (w === 0) continue;
      let x = out[i * 2];
      let y = out[i * 2 + 1];
      // Yaw/pitch as depth parallax around the head centre (small angles).
      const dz = z[i] - zc;
      x += yaw * dz * w;
      y -= pitch * dz * w;
      // Roll around the neck pivot.
      const a = roll * w;
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      const rx = x - px;
      const ry = y - py;
      x = px + rx * ca - ry * sa;
      y = py + rx * sa + ry * ca;
      out[i * 2] = x + pose.tx * w;
      out[i * 2 + 1] = y + pose.ty * w;
    }
  }
  return out;
}

/**
 * An expression's brows: up by `up` (× interocular), the inner ends by a further `innerUp` and in towards the
 * nose by `inward`, carrying the skin around them (brow-field.ts); lid row 2 below follows a third of the way
 * (as with the emphasis brow raise).
 */
function moveBrows(m: FaceModel, up: number, innerUp: number, inward: number, out: Float32Array): void {
  const io = m.interocular;
  const f = m.browField;
  for (let k = 0; k < f.idx.length; k++) {
    const i = f.idx[k];
    const q = f.inner[k];
    const w = f.weight[k] * io;
    out[i * 2] += inward * q * w * f.inward[k * 2];
    out[i * 2 + 1] += inward * q * w * f.inward[k * 2 + 1] - (up + innerUp * q) * w;
  }
  for (const row of f.lidRows)
    row.forEach((i, k) => {
      const q = k / (row.length - 1); // the row runs from the outer corner to the inner one
      out[i * 2 + 1] -= 0.35 * (up + innerUp * q) * io;
    });
}
