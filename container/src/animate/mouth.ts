/**
 * Synthesised mouth interior, drawn into the inner-lip opening after the warp:
 * dark cavity (deeper towards the middle), upper teeth hanging from the upper lip, a hint of lower teeth
 * and tongue rising from the lower lip as the jaw opens. Edges are anti-aliased against the warped lips
 * with a signed distance to the lip outline, so there is no hard box or seam.
 * Drawn straight into the yuv420p frame: luma per pixel, chroma per 2×2 block (shaded at its centre).
 */
import type { Rect } from "./warp";
import { smoothstep } from "@avatar-video/motion-model";

/** yuv420p frame layout (see video/yuv.ts). */
export interface YuvFrameLayout {
  width: number;
  height: number;
  ySize: number;
  cSize: number;
}

export interface MouthColors {
  teeth: [number, number, number];
  cavityEdge: [number, number, number];
  cavityDeep: [number, number, number];
  tongue: [number, number, number];
}

/** Pick interior colours that suit the portrait (lighting level and lip tone). */
export function mouthColors(skin: [number, number, number], lip: [number, number, number]): MouthColors {
  const luma = 0.299 * skin[0] + 0.587 * skin[1] + 0.114 * skin[2];
  const L = Math.min(1.08, Math.max(0.5, luma / 165));
  const c = (r: number, g: number, b: number, k = L): [number, number, number] => [
    Math.min(255, Math.round(r * k)),
    Math.min(255, Math.round(g * k)),
    Math.min(255, Math.round(b * k)),
  ];
  // Teeth: a little lighter than the skin, off-white tinted by the photo's light (half the skin's hue,
  // half a warm neutral), never brighter than the lighting allows.
  const tl = Math.min(215, Math.max(105, luma * 0.98 + 24));
  const k = tl / Math.max(1, luma);
  const teeth = [0, 1, 2].map((i) => {
    const neutral = tl * [1.0, 0.97, 0.88][i];
    const tinted = Math.min(255, skin[i] * k);
    return Math.round(Math.min(255, 0.5 * neutral + 0.5 * tinted));
  }) as [number, number, number];
  return {
    teeth,
    cavityEdge: [Math.round(lip[0] * 0.42), Math.round(lip[1] * 0.3), Math.round(lip[2] * 0.3)],
    cavityDeep: c(30, 12, 14, Math.min(1, L)),
    tongue: [Math.round(lip[0] * 0.78), Math.round(lip[1] * 0.5), Math.round(lip[2] * 0.52)],
  };
}

/**
 * Draw the mouth interior into a yuv420p frame. `upper` and `lower` are the inner-lip points (corner to
 * corner, same corners) as flat [x, y] arrays in canvas pixels. `open` 0..1 drives the lower teeth and
 * tongue, `round` 0..1 hides the teeth behind pushed-out lips. Only pixels inside `clip` (luma coordinates, even-aligned) are touched. Returns the luma rect
 * written (even-aligned), empty when the lips are closed.
 */
export function drawMouthInterior(
  frame: Uint8Array,
  L: YuvFrameLayout,
  upper: Float32Array,
  lower: Float32Array,
  open: number,
  colors: MouthColors,
  clip: Rect,
  round = 0,
): Rect {
  const none = { x0: 0, y0: 0, x1: 0, y1: 0 };
  const nU = upper.length / 2;
  const nL = lower.length / 2;
  // Polygon: upper left→right, lower right→left (skip shared corners).
  const poly: number[] = [];
  for (let i = 0; i < nU; i++) poly.push(upper[i * 2], upper[i * 2 + 1]);
  for (let i = nL - 2; i >= 1; i--) poly.push(lower[i * 2], lower[i * 2 + 1]);
  const np = poly.length / 2;
  let area = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < np; i++) {
    const j = (i + 1) % np;
    area += poly[i * 2] * poly[j * 2 + 1] - poly[j * 2] * poly[i * 2 + 1];
    minX = Math.min(minX, poly[i * 2]);
    maxX = Math.max(maxX, poly[i * 2]);
    minY = Math.min(minY, poly[i * 2 + 1]);
    maxY = Math.max(maxY, poly[i * 2 + 1]);
  }
  area = Math.abs(area) / 2;
  if (area < 1) return none;

  // Current mouth frame from the inner corners.
  const cx0 = upper[0];
  const cy0 = upper[1];
  const cx1 = upper[(nU - 1) * 2];
  const cy1 = upper[(nU - 1) * 2 + 1];
  const len = Math.hypot(cx1 - cx0, cy1 - cy0) || 1;
  const exx = (cx1 - cx0) / len;
  const exy = (cy1 - cy0) / len;
  const eyx = -exy;
  const eyy = exx;
  const ox = (cx0 + cx1) / 2;
  const oy = (cy0 + cy1) / 2;
  const hw = len / 2;
  // Lip curves v(u) sampled in the local frame.
  const toLocal = (arr: Float32Array, n: number) => {
    const us = new Float64Array(n);
    const vs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const dx = arr[i * 2] - ox;
      const dy = arr[i * 2 + 1] - oy;
      us[i] = (dx * exx + dy * exy) / hw;
      vs[i] = dx * eyx + dy * eyy;
    }
    return { us, vs };
  };
  const up = toLocal(upper, nU);
  const lo = toLocal(lower, nL);
  const curve = (c: { us: Float64Array; vs: Float64Array }, u: number) => {
    const n = c.us.length;
    if (u <= c.us[0]) return c.vs[0];
    for (let i = 0; i < n - 1; i++) {
      if (u <= c.us[i + 1]) {
        const f = (u - c.us[i]) / (c.us[i + 1] - c.us[i] || 1);
        return c.vs[i] + (c.vs[i + 1] - c.vs[i]) * f;
      }
    }
    return c.vs[n - 1];
  };

  const teethH = 0.17 * hw;
  // Centre opening (px): teeth fade in only once the lips are visibly apart (no white line on a closed mouth).
  let centreGap = 0;
  for (let k = 0; k < 9; k++) {
    const uu = -0.4 + k * 0.1;
    centreGap = Math.max(centreGap, curve(lo, uu) - curve(up, uu));
  }
  // Rounded (pushed-out) lips cover the teeth more.
  const teethVis = smoothstep(1.2, Math.max(2.5, 0.14 * hw), centreGap) * (1 - 0.6 * Math.min(1, Math.max(0, round)));
  const lowTeethH = 0.11 * hw * smoothstep(0.25, 0.8, open);
  const [tr, tg, tb] = colors.teeth;
  const [er, eg, eb] = colors.cavityEdge;
  const [dr, dg, db] = colors.cavityDeep;
  const [gr, gg, gb] = colors.tongue;
  const deepDist = Math.max(1.5, 0.22 * hw);

  // Lip curves as lookup tables over u ∈ [-1, 1] (vertical distance to them approximates the signed
  // distance to the opening's outline; it tapers naturally into the corners).
  const LUT = 256;
  const upT = new Float64Array(LUT + 1);
  const loT = new Float64Array(LUT + 1);
  for (let k = 0; k <= LUT; k++) {
    const uu = -1 + (2 * k) / LUT;
    upT[k] = curve(up, uu);
    loT[k] = curve(lo, uu);
  }

  const x0 = Math.max(clip.x0, (Math.floor(minX) - 2) & ~1);
  const x1 = Math.min(clip.x1, (Math.ceil(maxX) + 3) & ~1);
  const y0 = Math.max(clip.y0, (Math.floor(minY) - 2) & ~1);
  const y1 = Math.min(clip.y1, (Math.ceil(maxY) + 3) & ~1);
  if (x1 <= x0 || y1 <= y0) return none;
  const col = new Float64Array(3);

  /** Colour (into `col`) and coverage of the interior at canvas point (px, py). */
  const shade = (px: number, py: number): number => {
    {
      const dx = px - ox;
      const dy = py - oy;
      const u = (dx * exx + dy * exy) / hw;
      if (u <= -1 || u >= 1) return 0;
      const v = dx * eyx + dy * eyy;
      const fk = (u + 1) * (LUT / 2);
      const k = fk | 0;
      const fr = fk - k;
      const vUp = upT[k] + (upT[k + 1] - upT[k]) * fr;
      const vLo = loT[k] + (loT[k + 1] - loT[k]) * fr;
      const dist = Math.min(v - vUp, vLo - v, (1 - Math.abs(u)) * hw);
      const alpha = smoothstep(-0.7, 1.1, dist);
      if (alpha <= 0) return 0;
      const au = Math.abs(u);
      // Cavity: lip-shadow colour at the edge → deep dark inside.
      const deep = smoothstep(0, deepDist, dist);
      let r = er + (dr - er) * deep;
      let g = eg + (dg - eg) * deep;
      let b = eb + (db - eb) * deep;
      // Tongue (low, centre), visible with a wider opening.
      if (open > 0.3) {
        const gap = Math.max(1, vLo - vUp);
        const tcv = vLo - 0.05 * gap;
        const ev = (v - tcv) / (0.42 * gap);
        const eu = u / 0.62;
        const e = eu * eu + ev * ev;
        const ta = (1 - smoothstep(0.5, 1.0, e)) * smoothstep(0.3, 0.7, open) * 0.9;
        if (ta > 0) {
          const shade = 0.75 + 0.25 * smoothstep(tcv - 0.42 * gap, tcv, v);
          r += (gr * shade - r) * ta;
          g += (gg * shade - g) * ta;
          b += (gb * shade - b) * ta;
        }
      }
      // Lower teeth (in the lower lip's shadow).
      if (lowTeethH > 0.3 && au < 0.62) {
        const top = vLo - lowTeethH * Math.sqrt(Math.max(0, 1 - (u / 0.62) ** 2));
        const la = smoothstep(top - 0.8, top + 0.8, v) * (1 - smoothstep(0.2, 0.55, au)) * 0.3 * teethVis;
        if (la > 0) {
          const shade = 0.62 * (0.8 + 0.2 * smoothstep(top, vLo, v));
          r += (tr * shade - r) * la;
          g += (tg * shade - g) * la;
          b += (tb * shade - b) * la;
        }
      }
      // Upper teeth hang from the upper lip, follow its curve, recede into shadow at the sides.
      if (au < 0.8) {
        const prof = Math.sqrt(Math.max(0, 1 - (u / 0.8) ** 2));
        const gapHere = Math.max(0, vLo - vUp);
        const h = Math.min(teethH, 0.55 * gapHere + 0.04 * hw) * (0.45 + 0.55 * prof);
        const bottom = vUp + h;
        const ua = (1 - smoothstep(bottom - 0.9, bottom + 0.9, v)) * (1 - smoothstep(0.35, 0.78, au)) * 0.95 * teethVis;
        if (ua > 0) {
          // Shadow under the lip, slight darkening at the biting edge, a faint gap between the incisors.
          let shade = 0.6 + 0.4 * smoothstep(vUp, vUp + 0.6 * h, v);
          shade *= 1 - 0.1 * smoothstep(vUp + 0.6 * h, bottom, v);
          const gapW = Math.max(0.5, hw * 0.01);
          if (Math.abs(u * hw) < gapW) shade *= 0.9;
          shade *= 1 - 0.35 * smoothstep(0.15, 0.7, au);
          r += (tr * shade - r) * ua;
          g += (tg * shade - g) * ua;
          b += (tb * shade - b) * ua;
        }
      }
      col[0] = r;
      col[1] = g;
      col[2] = b;
      return alpha;
    }
  };

  const W = L.width;
  const cw = W >> 1;
  // Luma.
  for (let y = y0; y < y1; y++) {
    const py = y + 0.5;
    let o = y * W + x0;
    for (let x = x0; x < x1; x++, o++) {
      const a = shade(x + 0.5, py);
      if (a <= 0) continue;
      const Yc = 16 + (47 * col[0] + 157 * col[1] + 16 * col[2]) / 256;
      const cur = frame[o];
      frame[o] = (cur + (Yc - cur) * a + 0.5) | 0;
    }
  }
  // Chroma, one sample per 2×2 block, shaded at the block centre.
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  for (let cy = y0 >> 1; cy < y1 >> 1; cy++) {
    const py = cy * 2 + 1;
    let o = cy * cw + (x0 >> 1);
    for (let cx = x0 >> 1; cx < x1 >> 1; cx++, o++) {
      const a = shade(cx * 2 + 1, py);
      if (a <= 0) continue;
      const Uc = 128 + (-26 * col[0] - 86 * col[1] + 112 * col[2]) / 256;
      const Vc = 128 + (112 * col[0] - 102 * col[1] - 10 * col[2]) / 256;
      const cu = frame[uOff + o];
      const cv = frame[vOff + o];
      frame[uOff + o] = (cu + (Uc - cu) * a + 0.5) | 0;
      frame[vOff + o] = (cv + (Vc - cv) * a + 0.5) | 0;
    }
  }
  return { x0, y0, x1, y1 };
}
