/**
 * The painted layers of the synthesised mouth interior, back to front, for one pixel: cavity, tongue,
 * lower teeth, upper teeth (teeth.ts), and — on a portrait that shows its own teeth — the photo's own
 * interior carried by the upper lip. Each blends into `col` (r, g, b); mouth-shade.ts decides where and how much.
 */
import { smoothstep } from "@avatar-video/motion-model";
import { curveAt, LUT, type MouthAxis } from "./lip-curve";
import type { MouthStyle } from "./mouth-style";
import { samplePhoto, type YuvFrameLayout } from "./yuv-photo";

/**
 * Half width (× the photo's blur σ) of the smoothstep used for every step edge drawn (outline, tooth
 * bottoms, photo/synthesised boundary): smoothstep over ±1.9σ has the peak slope of a step blurred by a
 * Gaussian of σ (0.75 / 1.9σ ≈ 1 / (σ√2π)), so no drawn edge is sharper than the photo around it.
 */
export const STEP = 1.9;

/** Everything the per-pixel shading needs for one frame, computed once. */
export interface Interior {
  ax: MouthAxis;
  /** Current inner-lip curves v(u) (px across the corner line). */
  upT: Float64Array;
  loT: Float64Array;
  /** Overall visibility 0..1 (opening beyond the photo's own). */
  vis: number;
  open: number;
  /** 0..1: F/V — the lower lip is tucked under the upper teeth, which reach down to it. */
  tuck: number;
  teethVis: number;
  /** Lower teeth (drawn on every photo, its own teeth or not: they only show when the jaw drops). */
  lowTeethVis: number;
  teethH: number;
  lowTeethH: number;
  /** Softest feature width allowed (px): the photo's own blur. */
  edge: number;
  /** Half width (px) of a step edge as soft as the photo (STEP × σ). */
  step: number;
  /** Per u (lookup table): 0..1, the lips close over the photo's own teeth; the seam is painted with lip colour. */
  sealed: Float64Array;
  deepDist: number;
  st: MouthStyle;
  /** With the photo's corner teeth (corner-teeth.ts): where each point of the current inner-lip curves was at rest. */
  origin?: { up: { u: Float64Array; v: Float64Array }; lo: { u: Float64Array; v: Float64Array } };
}

/** Blend `col` (r, g, b) towards a colour by `a`. */
export function mix(col: Float64Array, r: number, g: number, b: number, a: number): void {
  col[0] += (r - col[0]) * a;
  col[1] += (g - col[1]) * a;
  col[2] += (b - col[2]) * a;
}

/** Cavity: lip-shadow colour at the lips' edge, dark throat inside, darker still in the middle. */
export function paintCavity(c: Interior, col: Float64Array, dist: number, au: number): void {
  const { cavityEdge: e, cavityDeep: d } = c.st;
  const deep = smoothstep(0, c.deepDist, dist) * (0.8 + 0.2 * (1 - au));
  col[0] = e[0] + (d[0] - e[0]) * deep;
  col[1] = e[1] + (d[1] - e[1]) * deep;
  col[2] = e[2] + (d[2] - e[2]) * deep;
}

/** Tongue: low in the mouth on wide openings (its top a third of the way up), rounded, in shadow towards the back. */
export function paintTongue(c: Interior, col: Float64Array, u: number, v: number, vLo: number, gapHere: number): void {
  if (c.open <= 0.3) return;
  const tcv = vLo - 0.02 * gapHere;
  const ev = (v - tcv) / (0.36 * gapHere + c.edge);
  const eu = u / 0.6;
  const e = eu * eu + ev * ev;
  const ta = (1 - smoothstep(0.55, 1.0, e)) * smoothstep(0.3, 0.75, c.open) * 0.85;
  if (ta <= 0) return;
  const sh = 0.45 + 0.4 * smoothstep(tcv - 0.36 * gapHere, tcv, v); // in the shadow of the palate
  const t = c.st.tongue;
  mix(col, t[0] * sh, t[1] * sh, t[2] * sh, ta);
}

/**
 * The photo's own interior (its teeth), carried by the upper lip: sampled from the still frame where the
 * point lies inside the photo's rest opening once the upper lip's move is undone. Returns the share of
 * the colour that is photo (0 = all synthesised).
 */
export function reusePhotoInterior(
  c: Interior,
  L: YuvFrameLayout,
  col: Float64Array,
  u: number,
  v: number,
  vUp: number,
): number {
  const { ax } = c;
  const r = c.st.rest.ax;
  const k = r.hw / ax.hw;
  const dUp = vUp - curveAt(c.st.rest.up, LUT, u) / k; // how far the upper lip moved from the photo's
  const v0 = (v - dUp) * k;
  // Only the lower side ends (the teeth move with the upper lip), as softly as the photo's own edges; at
  // F/V the lower lip is against the teeth, so no cavity shows below them.
  const restLo = curveAt(c.st.rest.lo, LUT, u) + curveAt(c.st.teethBelowLip, LUT, u);
  // Nor do they reach further down beside a steep lower lip at the corners: that strip is cavity too (a
  // stretched row of teeth there reads as a white sliver at the opening's end).
  const wp = Math.max(c.tuck, smoothstep(-c.step, c.step, restLo - v0));
  if (wp <= 0) return 0;
  const vs = Math.min(v0, restLo - c.step);
  const sx = r.ox + u * r.hw * r.ex - vs * r.ey;
  const sy = r.oy + u * r.hw * r.ey + vs * r.ex;
  const [pr, pg, pb] = samplePhoto(c.st.rest.stat, L, sx, sy);
  mix(col, pr, pg, pb, wp);
  return wp;
}

/** |u| beyond which the sealed lips' colour is that of the lower lip at this |u|. */
const SEAL_SAMPLE_U = 0.7;
/** Luma lost at the middle of the line where closed lips meet (their shadow on each other). */
const SEAM_DARK = 0.25;

/**
 * Lips pressed together over the photo's own teeth: the squeezed remains of the opening get the colour of
 * the lower lip just outside the photo's rest opening, with the soft dark line of lips meeting along its
 * middle (as wide as the photo's blur), reaching a blurred step beyond the inner edges. Returns the coverage.
 */
export function paintSeal(
  c: Interior,
  L: YuvFrameLayout,
  col: Float64Array,
  u: number,
  v: number,
  vUp: number,
  vLo: number,
  dist: number,
): number {
  const a = 1 - smoothstep(0, c.step + 1, -dist);
  if (a <= 0) return 0;
  const r = c.st.rest.ax;
  const d = v - (vUp + vLo) / 2;
  // The lower lip's colour (FaceMesh may put a smiling photo's upper inner-lip points on the teeth).
  // Towards the corners the photo's side teeth can reach that far below the lip's edge (lip-edge.ts): there
  // the lip's colour is taken from further in.
  const us = Math.max(-SEAL_SAMPLE_U, Math.min(SEAL_SAMPLE_U, u));
  const v0 = curveAt(c.st.rest.lo, LUT, us) + curveAt(c.st.teethBelowLip, LUT, us) + 0.12 * r.hw;
  const [pr, pg, pb] = samplePhoto(
    c.st.rest.stat,
    L,
    r.ox + us * r.hw * r.ex - v0 * r.ey,
    r.oy + us * r.hw * r.ey + v0 * r.ex,
  );
  const w = 1.3 * c.edge;
  // Darker towards the corners, where closed lips fold into their shadow.
  const dark = (1 - SEAM_DARK * Math.exp((-0.5 * d * d) / (w * w))) * (1 - 0.25 * smoothstep(0.75, 1, Math.abs(u)));
  col[0] = pr * dark;
  col[1] = pg * dark;
  col[2] = pb * dark;
  col[3] = 0;
  return a;
}
