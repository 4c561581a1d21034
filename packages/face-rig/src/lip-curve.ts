/**
 * A lip curve as a lookup table: v (distance across the corner line, px) as a function of u (along it, in
 * half mouth widths, -1 … 1), so the interior drawing asks "where is the lip here" in constant time.
 */

/** Entries of the lip-curve lookup tables. */
export const LUT = 256;

/** The lips' corner line of one frame: origin at its midpoint, unit axis, half width (px). */
export interface MouthAxis {
  ox: number;
  oy: number;
  ex: number;
  ey: number;
  hw: number;
}

/** The corner line of inner-lip points (first and last point are the corners). */
export function mouthAxis(upper: Float32Array): MouthAxis {
  const n = upper.length / 2;
  const x0 = upper[0],
    y0 = upper[1],
    x1 = upper[(n - 1) * 2],
    y1 = upper[(n - 1) * 2 + 1];
  const len = Math.hypot(x1 - x0, y1 - y0) || 1;
  return { ox: (x0 + x1) / 2, oy: (y0 + y1) / 2, ex: (x1 - x0) / len, ey: (y1 - y0) / len, hw: len / 2 };
}

/** Lip curve v(u) of points in a mouth frame, as a lookup table over u ∈ [-1, 1]. */
export function curveTable(
  pts: Float32Array,
  ox: number,
  oy: number,
  ex: number,
  ey: number,
  hw: number,
  size: number,
): Float64Array {
  const n = pts.length / 2;
  const us: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < n; i++) {
    const dx = pts[i * 2] - ox;
    const dy = pts[i * 2 + 1] - oy;
    us.push((dx * ex + dy * ey) / hw);
    vs.push(-dx * ey + dy * ex);
  }
  const t = new Float64Array(size + 1);
  let j = 0;
  for (let k = 0; k <= size; k++) {
    const u = -1 + (2 * k) / size;
    while (j < n - 2 && us[j + 1] < u) j++;
    const f = Math.min(1, Math.max(0, (u - us[j]) / (us[j + 1] - us[j] || 1)));
    t[k] = vs[j] + (vs[j + 1] - vs[j]) * f;
  }
  return t;
}

/** v at u from a table of `size` + 1 entries (linear between entries). */
export function curveAt(t: Float64Array, size: number, u: number): number {
  const fk = (u + 1) * (size / 2);
  const k = Math.min(size - 1, fk | 0);
  return t[k] + (t[k + 1] - t[k]) * (fk - k);
}
