/** Hermite smoothstep: 0 below `a`, 1 above `b`, an S-curve between (shared by masks, weights and envelopes). */
export function smoothstep(a: number, b: number, x: number): number {
  let t = (x - a) / (b - a);
  t = t < 0 ? 0 : Math.min(t, 1);
  return t * t * (3 - 2 * t);
}
