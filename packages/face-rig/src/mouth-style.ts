/**
 * How the synthesised mouth interior should look to pass for this photograph, measured once per video on
 * the static canvas (luma plane of the yuv420p frame):
 *  - blur: the photo's own softness at the mouth, as a Gaussian sigma in canvas px, from the steepest
 *    gradient across the outer lip edges (a blurred step of height h has a peak slope h / (σ√2π));
 *  - grain: the photo's luma noise (robust deviation of a 3×3 high-pass on the cheeks);
 *  - light: left/right lighting slope across the mouth (cheek luma at both sides);
 *  - rest: when the photo shows its own teeth (lips apart, the opening brighter than the lips), its own
 *    interior is reused and moves with the upper lip instead of being replaced by synthesised teeth, and
 *    what is synthesised below them (lower teeth) takes its teeth's colour (the brightest third of its rest
 *    opening).
 */
import type { FaceModel } from "./face-model";
import { curveTable, LUT, mouthAxis, type MouthAxis } from "./lip-curve";
import { type CornerTeeth, cornerTeeth } from "./corner-teeth";
import { teethBelowLip } from "./lip-edge";
import { type MouthColors, rgbLuma } from "./mouth-colors";
import { lumaOf, samplePhoto, yuvFrameLayout } from "./yuv-photo";

export interface MouthStyle extends MouthColors {
  blur: number;
  grain: number;
  light: number;
  /** The photo's mouth at rest: its corner line, inner-lip curves (lookup tables in that frame) and static yuv420p frame. */
  rest: RestMouth;
  /** The photo shows its own teeth: reuse its interior instead of synthesised teeth. */
  ownTeeth: boolean;
  /** Per u (lookup table, lip-edge.ts): how far the photo's teeth reach below the mesh's lower inner lip, px. */
  teethBelowLip: Float64Array;
  /** The photo's side teeth outside the inner-lip loop at the corners (corner-teeth.ts); absent: none. */
  cornerTeeth?: CornerTeeth;
}

export interface RestMouth {
  ax: MouthAxis;
  up: Float64Array;
  lo: Float64Array;
  /** The inner-lip points themselves (canvas px, corners first and last). */
  upPts: Float32Array;
  loPts: Float32Array;
  stat: Uint8Array;
}

/** The rest mouth of inner-lip points at rest (canvas px, corners first and last) on the still frame `stat`. */
export function restMouth(upper: Float32Array, lower: Float32Array, stat: Uint8Array): RestMouth {
  const ax = mouthAxis(upper);
  const table = (p: Float32Array) => curveTable(p, ax.ox, ax.oy, ax.ex, ax.ey, ax.hw, LUT);
  return { ax, up: table(upper), lo: table(lower), upPts: upper, loPts: lower, stat };
}

/** Lips apart at rest by more than this share of the half mouth width: the photo's interior is reused. */
const REST_GAP = 0.1;

const LOWER_EDGE = [181, 84, 17, 314, 405];
const UPPER_EDGE = [39, 37, 0, 267, 269];

export function mouthStyle(colors: MouthColors, m: FaceModel, stat: Uint8Array, W: number, H: number): MouthStyle {
  const lum = (x: number, y: number) => {
    const ix = Math.max(0, Math.min(W - 2, Math.floor(x)));
    const iy = Math.max(0, Math.min(H - 2, Math.floor(y)));
    const fx = Math.min(1, Math.max(0, x - ix));
    const fy = Math.min(1, Math.max(0, y - iy));
    const o = iy * W + ix;
    return (stat[o] * (1 - fx) + stat[o + 1] * fx) * (1 - fy) + (stat[o + W] * (1 - fx) + stat[o + W + 1] * fx) * fy;
  };
  const hw = m.mouth.halfWidth;
  const [ex, ey] = m.mouth.ey;
  // --- blur: profiles across the outer lip edges along the mouth's vertical axis ----------------------
  const sigmas: number[] = [];
  for (const i of [...LOWER_EDGE, ...UPPER_EDGE]) {
    const x0 = m.base[i * 2];
    const y0 = m.base[i * 2 + 1];
    const reach = Math.max(3, 0.16 * hw);
    const step = 0.25;
    const n = Math.round((2 * reach) / step);
    const p: number[] = [];
    for (let k = 0; k <= n; k++) {
      const t = -reach + k * step;
      p.push(lum(x0 + ex * t, y0 + ey * t));
    }
    let g = 0;
    for (let k = 2; k <= n - 2; k++) g = Math.max(g, Math.abs(p[k + 2] - p[k - 2]) / (4 * step));
    const q = Math.max(2, Math.round(n * 0.15));
    const a = p.slice(0, q).reduce((s, v) => s + v, 0) / q;
    const b = p.slice(n + 1 - q).reduce((s, v) => s + v, 0) / q;
    const h = Math.abs(b - a);
    if (h > 8 && g > 0) sigmas.push(h / (g * Math.sqrt(2 * Math.PI)));
  }
  sigmas.sort((a, b) => a - b);
  const blur = Math.min(6, Math.max(0.5, sigmas.length ? sigmas[sigmas.length >> 1] : 1));

  // --- grain and light on the cheeks ----------------------------------------------------------------
  const r = Math.max(3, Math.round(0.05 * m.interocular));
  const devs: number[] = [];
  const cheek = (i: number) => {
    const cx = Math.round(m.base[i * 2]);
    const cy = Math.round(m.base[i * 2 + 1]);
    let sum = 0;
    let cnt = 0;
    for (let y = cy - r; y <= cy + r; y++) {
      for (let x = cx - r; x <= cx + r; x++) {
        if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) continue;
        let mean = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) mean += stat[(y + dy) * W + x + dx];
        devs.push(Math.abs(stat[y * W + x] - mean / 9));
        sum += stat[y * W + x];
        cnt++;
      }
    }
    return cnt ? sum / cnt : 128;
  };
  const la = cheek(205);
  const lb = cheek(425);
  devs.sort((a, b) => a - b);
  const grain = Math.min(6, devs.length ? 1.4826 * devs[devs.length >> 1] * 1.12 : 0);
  const du = m.mu[425] - m.mu[205] || 1;
  const light = Math.max(-0.25, Math.min(0.25, ((lb - la) / du / Math.max(1, (la + lb) / 2)) * 0.6));

  // --- the photo's own interior -----------------------------------------------------------------------
  const { upperInner, lowerInner } = m.mouth;
  const pts = (idx: number[]) => {
    const a = new Float32Array(idx.length * 2);
    idx.forEach((vi, k) => {
      a[k * 2] = m.base[vi * 2];
      a[k * 2 + 1] = m.base[vi * 2 + 1];
    });
    return a;
  };
  let gap = 0;
  for (let k = 3; k < upperInner.length - 3; k++) gap = Math.max(gap, (m.mv[lowerInner[k]] - m.mv[upperInner[k]]) * hw);
  // Teeth showing: the middle of the opening is brighter than the lips around it.
  const mid = (a: number, b: number) =>
    lum((m.base[a * 2] + m.base[b * 2]) / 2, (m.base[a * 2 + 1] + m.base[b * 2 + 1]) / 2);
  let inside = 0;
  for (let k = 3; k <= 7; k++) inside += mid(upperInner[k], lowerInner[k]) / 5;
  const lips = (mid(0, 13) + mid(14, 17)) / 2;
  const teeth = inside > lips + 12;
  const ownTeeth = teeth && gap > Math.max(3, REST_GAP * hw);
  const rest = restMouth(pts(upperInner), pts(lowerInner), stat);
  const teethRgb = ownTeeth ? photoTeeth(m, stat, W, H) : colors.teeth;
  const none = new Float64Array(LUT + 1);
  const below = ownTeeth ? teethBelowLip(rest, lum, lumaOf(...teethRgb)) : none;
  const L = yuvFrameLayout(W, H);
  return {
    ...colors,
    teeth: teethRgb,
    blur,
    grain,
    light,
    rest,
    ownTeeth,
    teethBelowLip: below,
    cornerTeeth: ownTeeth ? cornerTeeth(rest, below, (x, y) => samplePhoto(stat, L, x, y), teethRgb, blur) : undefined,
  };
}

/** The photo's own teeth colour: the brightest third of the pixels between its inner lips at rest. */
function photoTeeth(m: FaceModel, stat: Uint8Array, W: number, H: number): [number, number, number] {
  const { upperInner, lowerInner } = m.mouth;
  const L = yuvFrameLayout(W, H);
  const samples: Array<[number, number, number]> = [];
  for (let k = 1; k < upperInner.length - 1; k++) {
    const [ux, uy] = [m.base[upperInner[k] * 2], m.base[upperInner[k] * 2 + 1]];
    const [lx, ly] = [m.base[lowerInner[k] * 2], m.base[lowerInner[k] * 2 + 1]];
    for (let t = 0.15; t <= 0.85; t += 0.1) samples.push(samplePhoto(stat, L, ux + (lx - ux) * t, uy + (ly - uy) * t));
  }
  const top = samples.sort((a, b) => rgbLuma(b) - rgbLuma(a)).slice(0, Math.max(1, Math.round(samples.length / 3)));
  return [0, 1, 2].map((i) =>
    Math.round(Math.min(255, Math.max(0, top.reduce((s, c) => s + c[i], 0) / top.length))),
  ) as [number, number, number];
}
