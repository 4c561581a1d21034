/**
 * Synthesised teeth, one tooth at a time, as a speaking mouth shows them: the upper row hanging from the
 * upper lip, the lower row standing above the lower lip. Both rows share one look so they read as one set:
 * the tooth colour lit like the face (mouth-colors.ts), central incisors the largest and brightest, the row
 * darker towards the corners (the mouth's shadow, the "buccal corridor"), separations that are faint
 * shadows as soft as the photo (never outlines: a dark line per tooth reads as a denture grille), a
 * translucent, slightly cooler biting edge, and the lip's shadow where the teeth leave it.
 */
import { smoothstep } from "@avatar-video/motion-model";
import { type Interior, mix } from "./mouth-layers";

/** Upper-teeth boundaries in |u| (inner half widths): central incisors, laterals, canines, premolars. */
const TOOTH_EDGES = [0, 0.3, 0.53, 0.72, 0.88];
/** Lower-teeth boundaries in |u|: narrower incisors than the upper ones, the arch ending sooner. */
const LOWER_TOOTH_EDGES = [0, 0.2, 0.41, 0.6, 0.76];

/** Per tooth from the middle (incisors, laterals, canines, premolars): brightness, and the corner rounding at the biting edge. */
const TOOTH_LIGHT = [1, 0.93, 0.88, 0.84];
const TOOTH_ROUND = [0.05, 0.08, 0.12, 0.1];

/** Luma lost at a separation between teeth (the middle one a little more): a faint shadow, not a line. */
const GAP_DARK = 0.08;
const MID_GAP_DARK = 0.11;
/** The biting edge's translucency: its share of the mouth's dark showing through, a little cool. */
const TRANSLUCENT = 0.3;
const EDGE_TINT = [0.94, 0.98, 1.04];
const EDGE_SHADE = 0.55;
/** The lip's shadow on the teeth: its share at the most, and its colour (the cavity's edge, lightened). */
const LIP_SHADOW = 0.6;
const LIP_SHADOW_LIGHT = 1.7;
/** Shade on the teeth darkens red least (exponents of the luma factor per channel). */
const SHADOW_TINT = [0.8, 1, 1.1];

interface ToothAt {
  /** 1-based tooth index from the middle. */
  k: number;
  /** 0..1 across the tooth, from its side nearer the middle. */
  t: number;
  /** Distance (share of the half width) to the nearer separation. */
  dEdge: number;
}

function toothAt(edges: number[], au: number): ToothAt {
  let k = 1;
  while (au > edges[k]) k++;
  const a0 = edges[k - 1];
  const a1 = edges[k];
  return { k, t: (au - a0) / (a1 - a0), dEdge: Math.min(au - a0, a1 - au) };
}

/**
 * Luma factor of a tooth's face away from its edges: its own brightness, a slight roundness across it, the
 * mouth's shadow towards the corners, the photo's light slope, and a soft separation shadow at its sides
 * (as wide as the photo's blur).
 */
function toothLight(c: Interior, tooth: ToothAt, u: number, au: number, corridor: number): number {
  const { k, t, dEdge } = tooth;
  let sh = TOOTH_LIGHT[k - 1] * (0.95 + 0.05 * Math.sin(Math.PI * t));
  const gw = Math.max(0.8, c.edge) / c.ax.hw;
  const dark = k === 1 && t < 0.5 ? MID_GAP_DARK : GAP_DARK;
  sh *= 1 - dark * (1 - smoothstep(0, gw, dEdge));
  sh *= 1 - corridor * smoothstep(0.1, 0.85, au);
  return sh * (1 + c.st.light * u);
}

/**
 * Blend the tooth colour × `sh` into `col` by `a`, warmer as it darkens (inside the mouth the light that
 * reaches the teeth comes off the lips and gums: shaded ivory turns olive without it), the biting edge's
 * translucency `tr` darkening and cooling it.
 */
function paintTooth(c: Interior, col: Float64Array, sh: number, lip: number, tr: number, a: number): void {
  const tc = c.st.teeth;
  const e = c.st.cavityEdge;
  const k = (i: number) => sh ** SHADOW_TINT[i] * (1 - tr + tr * EDGE_SHADE * EDGE_TINT[i]);
  // In the lip's shadow (`lip` 0..1) the teeth take the colour of the lip's underside.
  const s = LIP_SHADOW * lip;
  const ch = (i: number) => tc[i] * k(i) * (1 - s) + e[i] * LIP_SHADOW_LIGHT * s;
  mix(col, ch(0), ch(1), ch(2), a);
}

/**
 * Upper teeth hanging from the upper lip: each tooth's biting edge rounded at its corners (more so away from
 * the middle), the lip's shadow on their top, a translucent biting edge.
 */
export function paintUpperTeeth(
  c: Interior,
  col: Float64Array,
  u: number,
  au: number,
  v: number,
  vUp: number,
  gapHere: number,
): void {
  const end = TOOTH_EDGES[TOOTH_EDGES.length - 1];
  if (!(c.teethVis > 0 && au < end)) return;
  const { edge, ax } = c;
  const tooth = toothAt(TOOTH_EDGES, au);
  const free = Math.min(c.teethH, 0.55 * gapHere + 0.03 * ax.hw);
  const h = (free + (gapHere + 2 * edge - free) * c.tuck) * (1 - 0.4 * (au / end) ** 2);
  const bottom = vUp + h * (1 - TOOTH_ROUND[tooth.k - 1] * (1 - Math.sin(Math.PI * tooth.t)) ** 2);
  const ua = (1 - smoothstep(bottom - c.step, bottom + c.step, v)) * (1 - smoothstep(0.5, end, au)) * c.teethVis;
  if (ua <= 0) return;
  const sh = toothLight(c, tooth, u, au, 0.45);
  // The upper lip's shadow on the top of the teeth.
  const lip = 1 - smoothstep(vUp - 0.5 * edge, vUp + 0.25 * h + edge, v);
  const tr = TRANSLUCENT * smoothstep(bottom - 0.3 * h - edge, bottom - 0.5 * edge, v);
  paintTooth(c, col, sh, lip, tr, ua);
}

/**
 * Lower teeth above the lower lip: the same teeth a little darker (in the upper row's and the palate's
 * shadow), their translucent biting edge at the top, their foot in the lip's shadow with a line of gum at
 * the lip on a wide opening, the arch sinking behind the lip towards the sides.
 */
export function paintLowerTeeth(
  c: Interior,
  col: Float64Array,
  u: number,
  au: number,
  v: number,
  vLo: number,
  gapHere: number,
): void {
  const end = LOWER_TOOTH_EDGES[LOWER_TOOTH_EDGES.length - 1];
  if (!(c.lowTeethH > 0.3 && c.lowTeethVis > 0 && au < end)) return;
  const tooth = toothAt(LOWER_TOOTH_EDGES, au);
  const h = Math.min(c.lowTeethH, 0.3 * gapHere) * Math.sqrt(Math.max(0, 1 - (au / end) ** 2));
  if (!(h > 0.3)) return;
  const top = vLo - h * (1 - TOOTH_ROUND[tooth.k - 1] * (1 - Math.sin(Math.PI * tooth.t)) ** 2);
  const la = smoothstep(top - c.step, top + c.step, v) * (1 - smoothstep(0.6 * end, end, au)) * c.lowTeethVis;
  if (la <= 0) return;
  const depth = Math.min(1, Math.max(0, (v - top) / h)); // 0 at the biting edge, 1 at the lip
  const sh = 0.85 * toothLight(c, tooth, u, au, 0.5);
  const lip = 0.5 * smoothstep(0.35, 1, depth);
  const tr = TRANSLUCENT * (1 - smoothstep((0.5 * c.edge) / h, 0.3 + c.edge / h, depth));
  paintTooth(c, col, sh, lip, tr, la);
  // Gum at the lip where the teeth stand tall (a wide opening): the lip's shadow colour, lightened.
  const gum = smoothstep(0.72, 0.95, depth) * smoothstep(0.08 * c.ax.hw, 0.14 * c.ax.hw, h) * la;
  if (gum > 0) {
    const e = c.st.cavityEdge;
    mix(col, e[0] * 1.5, e[1] * 1.4, e[2] * 1.4, 0.7 * gum);
  }
}
