/** Curves along an eye (t = share of the way from the outer to the inner corner). */

export type Curve = (t: number) => number;

/** Straight segments through (t, s) points, held flat beyond the ends. */
export function piecewiseLinear(points: [number, number][]): Curve {
  const pts = [...points].sort((p, q) => p[0] - q[0]);
  return (t) => {
    if (t <= pts[0][0]) return pts[0][1];
    for (let k = 1; k < pts.length; k++) {
      if (t <= pts[k][0])
        return pts[k - 1][1] + ((pts[k][1] - pts[k - 1][1]) * (t - pts[k - 1][0])) / (pts[k][0] - pts[k - 1][0] || 1);
    }
    return pts[pts.length - 1][1];
  };
}

/** A Catmull–Rom (cubic Hermite) curve through (t, s) points, for t within their span. */
export function catmullRom(points: [number, number][]): Curve {
  const pts = [...points].sort((p, q) => p[0] - q[0]);
  const n = pts.length;
  return (t) => {
    let k = 0;
    while (k < n - 2 && pts[k + 1][0] < t) k++;
    const p0 = pts[Math.max(0, k - 1)];
    const p1 = pts[k];
    const p2 = pts[k + 1];
    const p3 = pts[Math.min(n - 1, k + 2)];
    const h = p2[0] - p1[0] || 1;
    const x = Math.min(1, Math.max(0, (t - p1[0]) / h));
    const m1 = ((p2[1] - p0[1]) / (p2[0] - p0[0] || 1)) * h;
    const m2 = ((p3[1] - p1[1]) / (p3[0] - p1[0] || 1)) * h;
    const x2 = x * x;
    const x3 = x2 * x;
    return (2 * x3 - 3 * x2 + 1) * p1[1] + (x3 - 2 * x2 + x) * m1 + (-2 * x3 + 3 * x2) * p2[1] + (x3 - x2) * m2;
  };
}
