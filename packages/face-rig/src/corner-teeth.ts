/**
 * The photo's side teeth that lie outside the mesh's inner-lip loop around a lip corner. The lip-refined mesh
 * can end a broad smile's opening short of its last teeth (the teeth sample portrait's image-left corner:
 * teeth up to ≈ 5 px beyond the inner corner and on both lips' edges there). At rest that is right — the
 * photo shows them — but when the lips close over the teeth (M/B/P) the lips' own triangles carry those teeth
 * into the closed mouth: a white fleck at the corner. Measured once on the still frame as a mask in the rest
 * mouth frame; mouth-shade.ts covers what of it the current frame shows with the sealed lips' colour.
 */
import { curveAt, LUT, type MouthAxis } from "./lip-curve";
import { type Rgb, rgbLuma } from "./mouth-colors";

/** |u| range of the mask (inner half widths) and its rows (half widths across the corner line). */
const U_FROM = 0.8;
const U_TO = 1.2;
/** Teeth are looked for up to this |u|; the rest of the grid is room for the soft edge (paintRect's pad). */
const U_TEETH = 1.1;
/** How far from the loop's curves (half widths) teeth count: the lips' inner edge, within paintRect's reach. */
const NEAR = 0.3;
const V_FROM = -0.45;
const V_TO = 0.8;

/** A 1 px grid in the rest mouth frame around both corners: 1 = the photo's teeth outside the loop. */
export interface CornerTeeth {
  cols: number;
  rows: number;
  /** Per side (u < 0, u > 0): rows × cols, column j at |u| = U_FROM + j / hw, row i at v = V_FROM·hw + i. */
  data: Float32Array;
  hw: number;
}

type Rest = { ax: MouthAxis; up: Float64Array; lo: Float64Array };

/**
 * The mask, from the rest mouth, the strip of teeth below its lower curve (lip-edge.ts teethBelowLip), the
 * photo's colour at a point, its teeth colour and its blur σ (px): a point is teeth where its hue (chromaticity: side teeth are
 * in shadow, so not as bright as the front ones) is nearer the teeth's than the lower lip's (in the middle) and
 * the skin's beside that corner, and it is not darker than nine tenths of the lip.
 */
export function cornerTeeth(
  { ax, up, lo }: Rest,
  below: Float64Array,
  rgbAt: (x: number, y: number) => Rgb,
  teeth: Rgb,
  blur: number,
): CornerTeeth {
  const hw = ax.hw;
  const at = (u: number, v: number) => rgbAt(ax.ox + u * hw * ax.ex - v * ax.ey, ax.oy + u * hw * ax.ey + v * ax.ex);
  const mean = (pts: Array<[number, number]>): Rgb => {
    const s = [0, 0, 0];
    for (const [u, v] of pts) at(u, v).forEach((c, i) => (s[i] += c / pts.length));
    return s as Rgb;
  };
  const d2 = (a: Rgb, b: Rgb) => {
    const sa = a[0] + a[1] + a[2] || 1;
    const sb = b[0] + b[1] + b[2] || 1;
    return (a[0] / sa - b[0] / sb) ** 2 + (a[1] / sa - b[1] / sb) ** 2 + (a[2] / sa - b[2] / sb) ** 2;
  };
  const lowerLip: Array<[number, number]> = [];
  for (let u = -0.3; u <= 0.3; u += 0.1) lowerLip.push([u, curveAt(lo, LUT, u) + curveAt(below, LUT, u) + 0.12 * hw]);
  const lip = mean(lowerLip);
  const dark = 0.9 * rgbLuma(lip);
  const cols = Math.ceil((U_TO - U_FROM) * hw);
  const rows = Math.ceil((V_TO - V_FROM) * hw);
  const data = new Float32Array(2 * rows * cols);
  for (let side = 0; side < 2; side++) {
    const sign = side ? 1 : -1;
    const skin = mean([-0.1, 0, 0.1].map((v) => [sign * 1.45, v * hw] as [number, number]));
    for (let j = 0; j < cols; j++) {
      const u = sign * (U_FROM + j / hw);
      const uc = Math.max(-1, Math.min(1, u));
      const top = curveAt(up, LUT, uc);
      const bottom = curveAt(lo, LUT, uc) + curveAt(below, LUT, uc);
      for (let i = 0; i < rows; i++) {
        const v = V_FROM * hw + i;
        if (Math.abs(u) > U_TEETH || v < (V_FROM + 0.08) * hw || v > (V_TO - 0.08) * hw) continue;
        if (v < top - NEAR * hw || v > bottom + NEAR * hw) continue; // not the lips' edge: the photo's own
        const c = at(u, v);
        const dt = d2(c, teeth);
        if (dt < d2(c, lip) && dt < d2(c, skin) && rgbLuma(c) >= dark) data[(side * rows + i) * cols + j] = 1;
      }
    }
  }
  return { cols, rows, data: soften(data, rows, cols, blur), hw };
}

/**
 * The mask grown by a pixel (the teeth's own blurred rim is light too) and blurred by the photo's σ (two box
 * passes), so what is painted over it ends as softly as the photo's own edges.
 */
function soften(mask: Float32Array, rows: number, cols: number, blur: number): Float32Array {
  const r = Math.max(1, Math.round(blur));
  let a = box(mask, rows, cols, 1);
  for (let i = 0; i < a.length; i++) a[i] = a[i] > 0 ? 1 : 0;
  a = box(box(a, rows, cols, r), rows, cols, r);
  return a;
}

/** A (2r+1)² box mean of each side's rows × cols grid, edges clamped. */
function box(src: Float32Array, rows: number, cols: number, r: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let side = 0; side < 2; side++)
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        let s = 0;
        let n = 0;
        for (let y = Math.max(0, i - r); y <= Math.min(rows - 1, i + r); y++)
          for (let x = Math.max(0, j - r); x <= Math.min(cols - 1, j + r); x++, n++)
            s += src[(side * rows + y) * cols + x];
        out[(side * rows + i) * cols + j] = s / n;
      }
  return out;
}

/** The mask at a rest-frame point (bilinear, so its edge is as soft as a pixel), 0 outside it. */
export function cornerTeethAt(t: CornerTeeth, u: number, v: number): number {
  const fj = (Math.abs(u) - U_FROM) * t.hw;
  const fi = v - V_FROM * t.hw;
  if (!(fj >= 0 && fi >= 0 && fj < t.cols - 1 && fi < t.rows - 1)) return 0;
  const j = fj | 0;
  const i = fi | 0;
  const o = ((u > 0 ? 1 : 0) * t.rows + i) * t.cols + j;
  const a = fj - j;
  const b = fi - i;
  const d = t.data;
  return (d[o] * (1 - a) + d[o + 1] * a) * (1 - b) + (d[o + t.cols] * (1 - a) + d[o + t.cols + 1] * a) * b;
}
