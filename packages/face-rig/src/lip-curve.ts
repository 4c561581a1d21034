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

/**
 * Where each point of a moved lip curve came from: per u of the moved curve's table (its frame `ax`), the
 * rest frame's u and v (frame `rax`) of the same place along the curve, from the curve's points now (`pts`)
 * and at rest (`restPts`, the same points in the same order).
 */
export function curveOrigin(
  pts: Float32Array,
  ax: MouthAxis,
  restPts: Float32Array,
  rax: MouthAxis,
  size: number,
): { u: Float64Array; v: Float64Array } {
  const n = pts.length / 2;
  const local = (p: Float32Array, a: MouthAxis, i: number) => {
    const dx = p[i * 2] - a.ox;
    const dy = p[i * 2 + 1] - a.oy;
    return [(dx * a.ex + dy * a.ey) / a.hw, -dx * a.ey + dy * a.ex];
  };
  const now = Array.from({ length: n }, (_, i) => local(pts, ax, i));
  const then = Array.from({ length: n }, (_, i) => local(restPts, rax, i));
  const u = new Float64Array(size + 1);
  const v = new Float64Array(size + 1);
  let j = 0;
  for (let k = 0; k <= size; k++) {
    const uk = -1 + (2 * k) / size;
    while (j < n - 2 && now[j + 1][0] < uk) j++;
    const f = Math.min(1, Math.max(0, (uk - now[j][0]) / (now[j + 1][0] - now[j][0] || 1)));
    u[k] = then[j][0] + (then[j + 1][0] - then[j][0]) * f;
    v[k] = then[j][1] + (then[j + 1][1] - then[j][1]) * f;
  }
  return { u, v };
}
