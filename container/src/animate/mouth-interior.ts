/**
 * Synthesised mouth interior, drawn into the inner-lip opening after the warp: dark throat, lip-shadow
 * colour along the lips' inner edge, upper teeth hanging from the upper lip (one shaded tooth at a time,
 * darker gaps, receding into shadow at the sides), lower teeth mostly hidden by the lower lip, a tongue on
 * wide openings. Everything is drawn as soft as the photo (its measured blur sets every edge width), with
 * its grain, its lighting slope and colours taken from the photo (see mouth-style.ts). A photo whose lips
 * are apart at rest keeps its own interior: it is sampled from the still frame and moves with the upper lip.
 * The interior fades out towards the inner corners, so nothing is drawn past the lips' own corners.
 * Drawn straight into the yuv420p frame: luma per pixel, chroma per 2×2 block (shaded at its centre).
 */
import { smoothstep } from "@avatar-video/motion-model";
import { curveAt, curveTable } from "./lip-curve";
import type { MouthStyle } from "./mouth-style";
import { samplePhoto, type YuvFrameLayout } from "./still-frame";
import type { Rect } from "./warp";

export type { YuvFrameLayout };

/** Upper-teeth boundaries in |u| (inner half widths): central incisors, laterals, canines, premolars. */
const TOOTH_EDGES = [0, 0.3, 0.53, 0.72, 0.88];

/** Deterministic per-pixel noise, roughly N(0, 1) (static, like the photo's own grain). */
function noise(x: number, y: number): number {
  let h = Math.imul(x * 374761393 + y * 668265263, 1274126177);
  h ^= h >>> 13;
  h = Math.imul(h, 1274126177);
  const a = (h & 0xffff) / 65536;
  const b = ((h >>> 16) & 0xffff) / 65536;
  return (a + b - 1) * 2.45;
}

/**
 * Draw the mouth interior into a yuv420p frame. `upper` and `lower` are the inner-lip points (corner to
 * corner, same corners) as flat [x, y] arrays in canvas pixels. `open` 0..1 drives the tongue and lower
 * teeth, `round` 0..1 hides the teeth behind pushed-out lips. Only pixels inside `clip` are touched.
 * Returns the luma rect written (even-aligned), empty when the lips are (nearly) closed.
 */
export function drawMouthInterior(
  frame: Uint8Array,
  L: YuvFrameLayout,
  upper: Float32Array,
  lower: Float32Array,
  open: number,
  st: MouthStyle,
  clip: Rect,
  round = 0,
): Rect {
  const none = { x0: 0, y0: 0, x1: 0, y1: 0 };
  const nU = upper.length / 2;
  const cx0 = upper[0];
  const cy0 = upper[1];
  const cx1 = upper[(nU - 1) * 2];
  const cy1 = upper[(nU - 1) * 2 + 1];
  const len = Math.hypot(cx1 - cx0, cy1 - cy0) || 1;
  const exx = (cx1 - cx0) / len;
  const exy = (cy1 - cy0) / len;
  const ox = (cx0 + cx1) / 2;
  const oy = (cy0 + cy1) / 2;
  const hw = len / 2;
  const LUT = 256;
  const upT = curveTable(upper, ox, oy, exx, exy, hw, LUT);
  const loT = curveTable(lower, ox, oy, exx, exy, hw, LUT);
  const s = st.blur;
  const rest = st.rest;
  const n = rest.upper.length / 2;
  const ax = rest.upper[0], ay = rest.upper[1], bx = rest.upper[(n - 1) * 2], by = rest.upper[(n - 1) * 2 + 1];
  const rl = Math.hypot(bx - ax, by - ay) || 1;
  const rex = (bx - ax) / rl;
  const rey = (by - ay) / rl;
  const rox = (ax + bx) / 2;
  const roy = (ay + by) / 2;
  const rhw = rl / 2;
  const rUp = curveTable(rest.upper, rox, roy, rex, rey, rhw, LUT);
  const rLo = curveTable(rest.lower, rox, roy, rex, rey, rhw, LUT);
  let centreGap = 0;
  let restGap = 0;
  for (let k = (LUT * 0.3) | 0; k <= LUT * 0.7; k += 8) {
    centreGap = Math.max(centreGap, loT[k] - upT[k]);
    restGap = Math.max(restGap, (rLo[k] - rUp[k]) * (hw / rhw));
  }
  // Only an opening beyond the photo's own shows the interior: at rest the frame is the photograph, and a
  // barely parted mouth shows the lips' own (warped) seam, never a drawn dark stroke.
  const extra = centreGap - restGap;
  const vis = smoothstep(0.4, 1.2 + 1.5 * s, extra);
  if (!(vis > 0)) return none;
  const teethVis = st.ownTeeth ? 0 : smoothstep(1.5, Math.max(3, 0.16 * hw), extra) * (1 - 0.65 * Math.min(1, Math.max(0, round)));
  const teethH = 0.28 * hw;
  const lowTeethH = 0.07 * hw * smoothstep(0.35, 0.9, open);
  const edge = Math.max(0.7, s); // softest feature edge allowed: the photo's own blur
  const [tr, tg, tb] = st.teeth;
  const [er, eg, eb] = st.cavityEdge;
  const [dr, dg, db] = st.cavityDeep;
  const [gr, gg, gb] = st.tongue;
  const deepDist = Math.max(1.5, 0.2 * hw);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const a of [upper, lower]) for (let i = 0; i < a.length; i += 2) {
    minX = Math.min(minX, a[i]); maxX = Math.max(maxX, a[i]);
    minY = Math.min(minY, a[i + 1]); maxY = Math.max(maxY, a[i + 1]);
  }
  const pad = Math.ceil(2 * s) + 2;
  const x0 = Math.max(clip.x0, (Math.floor(minX) - pad) & ~1);
  const x1 = Math.min(clip.x1, (Math.ceil(maxX) + pad + 1) & ~1);
  const y0 = Math.max(clip.y0, (Math.floor(minY) - pad) & ~1);
  const y1 = Math.min(clip.y1, (Math.ceil(maxY) + pad + 1) & ~1);
  if (x1 <= x0 || y1 <= y0) return none;
  const col = new Float64Array(4); // r, g, b, share of synthesised (grain) content
  const W = L.width;
  const cw = W >> 1;
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  const table = (t: Float64Array, u: number) => curveAt(t, LUT, u);

  /** Colour (into `col`) and coverage of the interior at canvas point (px, py). */
  const shade = (px: number, py: number): number => {
    const dx = px - ox;
    const dy = py - oy;
    const u = (dx * exx + dy * exy) / hw;
    if (u <= -1 || u >= 1) return 0;
    const v = -dx * exy + dy * exx;
    const vUp = table(upT, u);
    const vLo = table(loT, u);
    const dist = Math.min(v - vUp, vLo - v);
    const au = Math.abs(u);
    const alpha = smoothstep(-0.6 * s, 0.6 + 1.4 * s, dist) * (1 - smoothstep(0.7, 0.98, au)) * vis;
    if (alpha <= 0) return 0;
    const gapHere = Math.max(0, vLo - vUp);
    // Cavity: lip-shadow colour at the lips' edge, dark throat inside, darker still in the middle.
    const deep = smoothstep(0, deepDist, dist) * (0.8 + 0.2 * (1 - au));
    let r = er + (dr - er) * deep;
    let g = eg + (dg - eg) * deep;
    let b = eb + (db - eb) * deep;
    // Tongue: low in the mouth on wide openings, rounded, shaded towards the back.
    if (open > 0.3) {
      const tcv = vLo - 0.02 * gapHere;
      const ev = (v - tcv) / (0.45 * gapHere + edge);
      const eu = u / 0.6;
      const e = eu * eu + ev * ev;
      const ta = (1 - smoothstep(0.55, 1.0, e)) * smoothstep(0.3, 0.75, open) * 0.85;
      if (ta > 0) {
        const sh = 0.55 + 0.45 * smoothstep(tcv - 0.45 * gapHere, tcv, v);
        r += (gr * sh - r) * ta;
        g += (gg * sh - g) * ta;
        b += (gb * sh - b) * ta;
      }
    }
    // Lower teeth: a thin band above the lower lip at the centre, in the lip's shadow.
    if (lowTeethH > 0.3 && au < 0.45) {
      const top = vLo - lowTeethH * Math.sqrt(Math.max(0, 1 - (u / 0.45) ** 2));
      const la = smoothstep(top - edge, top + edge, v) * (1 - smoothstep(0.15, 0.45, au)) * 0.45 * teethVis;
      if (la > 0) {
        const sh = 0.55;
        r += (tr * sh - r) * la;
        g += (tg * sh - g) * la;
        b += (tb * sh - b) * la;
      }
    }
    // Upper teeth: one tooth at a time, hanging from the upper lip.
    if (teethVis > 0 && au < TOOTH_EDGES[TOOTH_EDGES.length - 1]) {
      let k = 1;
      while (au > TOOTH_EDGES[k]) k++;
      const a0 = TOOTH_EDGES[k - 1];
      const a1 = TOOTH_EDGES[k];
      const t = (au - a0) / (a1 - a0);
      const h = Math.min(teethH, 0.55 * gapHere + 0.03 * hw) * (1 - 0.4 * (au / 0.88) ** 2);
      const bottom = vUp + h * (0.9 + 0.1 * Math.sin(Math.PI * t));
      const ua = (1 - smoothstep(bottom - edge, bottom + edge, v)) * (1 - smoothstep(0.5, 0.88, au)) * teethVis;
      if (ua > 0) {
        // Rounded tooth face, darker gaps between teeth (the middle one darkest), shadow under the lip,
        // receding into the mouth's shadow at the sides, the photo's light slope across the mouth.
        let sh = 0.8 + 0.2 * Math.sin(Math.PI * t);
        const gw = Math.max(0.5, 0.6 * edge) / hw;
        const dEdge = Math.min(au - a0, a1 - au);
        sh *= 1 - (k === 1 && au - a0 < a1 - au ? 0.5 : 0.35) * (1 - smoothstep(0, gw, dEdge));
        sh *= 0.62 + 0.38 * smoothstep(vUp - 0.5 * edge, vUp + 0.45 * h + edge, v);
        sh *= 0.9 - 0.4 * smoothstep(0.2, 0.8, au);
        sh *= 1 + st.light * u;
        r += (tr * sh - r) * ua;
        g += (tg * sh - g) * ua;
        b += (tb * sh - b) * ua;
      }
    }
    let synth = 1;
    // The photo's own interior, carried by the upper lip.
    if (st.ownTeeth) {
      const dUp = vUp - table(rUp, u) * (hw / rhw); // how far the upper lip moved from the photo's
      const v0 = (v - dUp) * (rhw / hw);
      const rd = Math.min(v0 - table(rUp, u), table(rLo, u) - v0);
      const wp = smoothstep(-2 * edge - 1, -edge, rd); // reaches past the rest curves: at rest, all photo
      if (wp > 0) {
        const sx = rox + u * rhw * rex - v0 * rey;
        const sy = roy + u * rhw * rey + v0 * rex;
        const [pr, pg, pb] = samplePhoto(rest.stat, L, sx, sy);
        r += (pr - r) * wp;
        g += (pg - g) * wp;
        b += (pb - b) * wp;
        synth = 1 - wp;
      }
    }
    col[0] = r;
    col[1] = g;
    col[2] = b;
    col[3] = synth;
    return alpha;
  };

  for (let y = y0; y < y1; y++) {
    let o = y * W + x0;
    for (let x = x0; x < x1; x++, o++) {
      const a = shade(x + 0.5, y + 0.5);
      if (a <= 0) continue;
      const Yc = 16 + (47 * col[0] + 157 * col[1] + 16 * col[2]) / 256 + st.grain * col[3] * noise(x, y);
      const cur = frame[o];
      frame[o] = Math.max(0, Math.min(255, (cur + (Yc - cur) * a + 0.5) | 0));
    }
  }
  for (let cy = y0 >> 1; cy < y1 >> 1; cy++) {
    let o = cy * cw + (x0 >> 1);
    for (let cx = x0 >> 1; cx < x1 >> 1; cx++, o++) {
      const a = shade(cx * 2 + 1, cy * 2 + 1);
      if (a <= 0) continue;
      const Uc = 128 + (-26 * col[0] - 86 * col[1] + 112 * col[2]) / 256;
      const Vc = 128 + (112 * col[0] - 102 * col[1] - 10 * col[2]) / 256;
      frame[uOff + o] = (frame[uOff + o] + (Uc - frame[uOff + o]) * a + 0.5) | 0;
      frame[vOff + o] = (frame[vOff + o] + (Vc - frame[vOff + o]) * a + 0.5) | 0;
    }
  }
  return { x0, y0, x1, y1 };
}
