/**
 * How the mesh follows the mouth, measured once on the rest mesh: a mouth frame (corner line), each
 * vertex's mouth-local coordinates, lip roles, the jaw weight of each face point, the triangles spanning
 * the inner-lip loop (covered by the synthesised interior), and the offsets that seal a photo's parted lips.
 */
import { smoothstep } from "@avatar-video/motion-model";
import {
  FACE_POINTS,
  LIPS_LOWER_INNER,
  LIPS_LOWER_OUTER,
  LIPS_LOWER_SEMI_INNER,
  LIPS_LOWER_SEMI_OUTER,
  LIPS_UPPER_INNER,
  LIPS_UPPER_OUTER,
  LIPS_UPPER_SEMI_INNER,
  LIPS_UPPER_SEMI_OUTER,
} from "./facemesh-topology";

/** Nose base and nostrils: they follow the jaw a little (the upper lip and cheeks are pulled down). */
const NOSE_BASE = [
  2, 94, 19, 97, 326, 98, 327, 48, 278, 64, 294, 240, 460, 99, 328, 60, 290, 75, 305, 79, 309, 166, 392, 219, 439, 218,
  438, 237, 457, 20, 250,
];
const LIP_CORNERS = [61, 291, 78, 308, 62, 292, 76, 306];

export interface MouthFrame {
  /** Rest frame: origin (corner midpoint), unit axes, half width in px. */
  ox: number;
  oy: number;
  ex: [number, number];
  ey: [number, number];
  halfWidth: number;
}

export interface MouthRig {
  frame: MouthFrame;
  /** Mouth-local coordinates per vertex (u along the corner line, v down; in half mouth widths). */
  mu: Float32Array;
  mv: Float32Array;
  /** Lip roles: 0 none, 1 upper lip, 2 lower lip, 3 corner. */
  lipRole: Uint8Array;
  /** Inner-lip row: 1 upper inner, 2 lower inner (for rest closing), else 0. */
  innerRow: Uint8Array;
  /** Triangles spanning the inner-lip loop. */
  holeTris: number[];
}

export function buildMouthRig(base: Float32Array, count: number): MouthRig {
  const c0x = base[61 * 2];
  const c0y = base[61 * 2 + 1];
  const c1x = base[291 * 2];
  const c1y = base[291 * 2 + 1];
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
  for (const i of [...LIPS_UPPER_OUTER, ...LIPS_UPPER_INNER, ...LIPS_UPPER_SEMI_INNER, ...LIPS_UPPER_SEMI_OUTER])
    lipRole[i] = 1;
  for (const i of [...LIPS_LOWER_OUTER, ...LIPS_LOWER_INNER, ...LIPS_LOWER_SEMI_INNER, ...LIPS_LOWER_SEMI_OUTER])
    lipRole[i] = 2;
  for (const i of LIP_CORNERS) lipRole[i] = 3;
  for (const i of LIPS_UPPER_INNER.slice(1, -1)) innerRow[i] = 1;
  for (const i of LIPS_LOWER_INNER.slice(1, -1)) innerRow[i] = 2;
  return { frame: { ox, oy, ex, ey, halfWidth: hw }, mu, mv, lipRole, innerRow, holeTris: innerLipTriangles() };
}

/** Triangles between the upper and lower inner-lip rows (corner to corner). */
function innerLipTriangles(): number[] {
  const hole: number[] = [];
  for (let i = 0; i < LIPS_UPPER_INNER.length - 1; i++) {
    const u0 = LIPS_UPPER_INNER[i];
    const u1 = LIPS_UPPER_INNER[i + 1];
    const l0 = LIPS_LOWER_INNER[i];
    const l1 = LIPS_LOWER_INNER[i + 1];
    if (u0 !== l0) hole.push(u0, u1, l0);
    if (u1 !== l1) hole.push(u1, l1, l0);
  }
  return hole;
}

/** Jaw weight of each face point (the anchor rings are set from these: anchor-rings.ts). */
export function faceJawWeights(rig: MouthRig, count: number): Float32Array {
  const { mu, mv, lipRole } = rig;
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
      jawW[i] = 0.18 + 0.82 * (1 - uu * uu) ** 1.3;
    } else jawW[i] = smoothstep(-0.05, 0.45, v) * lateral(u);
  }
  // Points below the lower lip must not move less than the lip above them (no fold-over).
  for (let i = 0; i < FACE_POINTS; i++) {
    if (lipRole[i] !== 0) continue;
    if (mv[i] > 0.3 && Math.abs(mu[i]) < 0.9) jawW[i] = Math.max(jawW[i], 0.18 + 0.82 * (1 - mu[i] * mu[i]) ** 1.3);
  }
  // The upper face never follows the jaw, except a little: the cheeks beside the mouth and the nostrils.
  for (let i = 0; i < FACE_POINTS; i++) {
    if (!(mv[i] < -0.05 && lipRole[i] !== 2) || lipRole[i] === 3) continue;
    jawW[i] = Math.abs(mu[i]) > 1.1 ? 0.07 * smoothstep(-0.9, -0.1, mv[i]) : 0;
  }
  for (const i of NOSE_BASE) jawW[i] = Math.max(jawW[i], 0.03);
  return jawW;
}

/** Share of the half mouth width the upper teeth show between the lips at F/V (≈ 2.5 mm of a 50 mm mouth). */
const TUCK_TEETH = 0.1;
/** The upper lip's lift at F/V, and how far the lower lip rolls in under the teeth (its outer edge rises more). */
const TUCK_LIFT = 0.06;
const TUCK_ROLL = 0.08;

/**
 * F/V offsets (dy along the mouth's down axis, px, at tuck = 1): the upper lip lifts a little, the lower lip
 * comes up until only a strip of the upper teeth shows between them and rolls in under the teeth (its outer
 * edge rises more than its inner one, so it looks thinner). Lips parted at rest by less than that strip
 * close to it; a wider gap is the photo showing its teeth down to the lower lip, which then only follows
 * the upper lip's lift (the photo's teeth move with the upper lip).
 */
export function tuckOffsets(rig: MouthRig, count: number): Float32Array {
  const { mu, mv } = rig;
  const hw = rig.frame.halfWidth;
  const out = new Float32Array(count);
  const prof = (i: number) => Math.max(0, 1 - mu[i] * mu[i]);
  const upperRows = [LIPS_UPPER_INNER, LIPS_UPPER_SEMI_INNER, LIPS_UPPER_SEMI_OUTER, LIPS_UPPER_OUTER];
  const lowerRows = [LIPS_LOWER_INNER, LIPS_LOWER_SEMI_INNER, LIPS_LOWER_SEMI_OUTER, LIPS_LOWER_OUTER];
  for (let k = 1; k < LIPS_UPPER_INNER.length - 1; k++) {
    const ui = LIPS_UPPER_INNER[k];
    const li = LIPS_LOWER_INNER[k];
    const teeth = TUCK_TEETH * hw * prof(li);
    const gap = Math.max(0, (mv[li] - mv[ui]) * hw);
    const lift = TUCK_LIFT * hw * prof(ui);
    for (const row of upperRows) out[row[k]] = -lift;
    const rise = lift + Math.min(gap, teeth) - teeth;
    lowerRows.forEach((row, depth) => (out[row[k]] = -(rise + (TUCK_ROLL * hw * prof(row[k]) * depth) / 3)));
  }
  return out;
}

/**
 * How much the photo smiles: the inner lips' centre below the corner line, in half mouth widths (≈ 0 for a
 * relaxed mouth, 0.15–0.3 for a broad smile).
 */
export function smileLift(rig: MouthRig): number {
  const centre = (rig.mv[13] + rig.mv[14]) / 2;
  return Math.max(0, Math.min(0.35, centre));
}

/** The most restClosingOffsets closes a pair of inner-lip points, half mouth widths. */
const MAX_REST_CLOSE = 0.24;

/** Closing offsets (dy along the mouth's down axis, px) that bring a photo's parted lips together for M/B/P. */
export function restClosingOffsets(rig: MouthRig, count: number): Float32Array {
  const { mv } = rig;
  const hw = rig.frame.halfWidth;
  const restCloseV = new Float32Array(count);
  const maxClose = MAX_REST_CLOSE * hw;
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
  return restCloseV;
}

/** How far a photo's lips are apart at rest, 0 (they meet) to 1 (a smile showing its teeth). */
export function partedShare(mv: Float32Array): number {
  return smoothstep(0.1, 0.4, mv[14] - mv[13]);
}

/** Each inner-lip corner with the outer one (the commissure) beside it. */
export const LOOP_CORNERS = [
  [LIPS_UPPER_INNER[0], LIPS_UPPER_OUTER[0]],
  [LIPS_UPPER_INNER[LIPS_UPPER_INNER.length - 1], LIPS_UPPER_OUTER[LIPS_UPPER_OUTER.length - 1]],
] as const;

/** Shares of the inner row's closing that the lip rows further out follow in a held closed mouth. */
const HELD_FOLLOW = [0.95, 0.85, 0.65];

/** How far a press flattens each lip towards the other (deform.ts), half mouth widths at the middle. */
export const PRESS_FLATTEN = 0.03;
/** Share of the press's extra closing (beyond restClosingOffsets) the lower lip takes: the jaw closes too. */
const PRESS_LOWER_SHARE = 0.6;

/**
 * Offsets (along the mouth's down axis `v` and along its corner line `u`, px) that move each pair of inner-lip
 * points towards each other by `amount(gap, k)` px of their rest gap, the lower lip taking `lowerShare` of it,
 * along the mouth too in proportion (towards where the pair meets), the lip rows further out following nearly
 * whole (HELD_FOLLOW).
 */
function wholeLipClosing(
  rig: MouthRig,
  count: number,
  lowerShare: number,
  amount: (gap: number, k: number) => number,
): { v: Float32Array; u: Float32Array } {
  const { mu, mv } = rig;
  const hw = rig.frame.halfWidth;
  const v = new Float32Array(count);
  const u = new Float32Array(count);
  const rows = [
    [LIPS_UPPER_INNER, LIPS_UPPER_SEMI_INNER, LIPS_UPPER_SEMI_OUTER, LIPS_UPPER_OUTER],
    [LIPS_LOWER_INNER, LIPS_LOWER_SEMI_INNER, LIPS_LOWER_SEMI_OUTER, LIPS_LOWER_OUTER],
  ];
  for (let k = 1; k < LIPS_UPPER_INNER.length - 1; k++) {
    const up = LIPS_UPPER_INNER[k];
    const lo = LIPS_LOWER_INNER[k];
    const gap = Math.max(0, (mv[lo] - mv[up]) * hw);
    const close = amount(gap, k);
    if (!(close > 0)) continue;
    const along = (mu[lo] - mu[up]) * hw * (close === gap ? 1 : close / gap);
    rows.forEach((lip, side) => {
      const sign = side === 0 ? 1 - lowerShare : -lowerShare;
      v[lip[0][k]] = sign * close;
      u[lip[0][k]] = sign * along;
      for (let depth = 1; depth < lip.length; depth++) {
        const o = lip[depth][k];
        if (o === lip[0][k]) continue;
        v[o] = sign * close * HELD_FOLLOW[depth - 1];
        u[o] = sign * along * HELD_FOLLOW[depth - 1];
      }
    });
  }
  return { v, u };
}

/**
 * Offsets (as wholeLipClosing) for the part of a parted photo mouth that restClosingOffsets leaves open at a
 * full press — the lips of a smile showing its teeth are apart by more than its cap — so the lips meet at
 * press 1 instead of leaving a squeezed strip of teeth between them; the lower lip takes most of it. Zero
 * where the rest closing (with the press's flattening) already meets.
 */
export function pressExcessOffsets(rig: MouthRig, count: number): { v: Float32Array; u: Float32Array } {
  const { mu } = rig;
  const hw = rig.frame.halfWidth;
  return wholeLipClosing(rig, count, PRESS_LOWER_SHARE, (gap, k) => {
    const up = mu[LIPS_UPPER_INNER[k]];
    const lo = mu[LIPS_LOWER_INNER[k]];
    const flat = PRESS_FLATTEN * hw * (Math.max(0, 1 - up * up) + Math.max(0, 1 - lo * lo));
    return Math.max(0, gap - Math.min(gap, MAX_REST_CLOSE * hw) - flat);
  });
}

/**
 * Offsets (as wholeLipClosing) that close a parted photo mouth all the way and hold it closed (an
 * expression): the lips move nearly whole — a lip stretched over a broad smile's gap shows streaks — and the
 * skin beyond them takes up the stretch. Each pair of inner-lip points meets at their midpoint, across and
 * along the mouth, so no sliver of the opening (and of the photo's teeth in it) is left beside a corner where
 * the rows do not face each other.
 */
export function heldClosingOffsets(rig: MouthRig, count: number): { v: Float32Array; u: Float32Array } {
  return wholeLipClosing(rig, count, 0.5, (gap) => gap);
}
