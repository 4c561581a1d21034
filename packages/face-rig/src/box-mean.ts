/**
 * Mean over a (2r+1)² box around every pixel of a one-channel float image, with running sums (cost does
 * not grow with r). At the borders the mean is over the part of the box inside the image. The matte's
 * guided filter and its foreground-colour estimate are built from it.
 */
export function boxMean(
  src: Float32Array,
  w: number,
  h: number,
  r: number,
  out = new Float32Array(w * h),
): Float32Array {
  const rows = new Float32Array(w * h);
  for (let y = 0; y < h; y++) slideMean(src, rows, y * w, 1, w, r);
  for (let x = 0; x < w; x++) slideMean(rows, out, x, w, h, r);
  return out;
}

/** One line of `n` values starting at `o`, `step` apart: the mean over ±r along the line. */
function slideMean(src: Float32Array, dst: Float32Array, o: number, step: number, n: number, r: number): void {
  let sum = 0;
  const first = Math.min(r, n - 1);
  for (let i = 0; i <= first; i++) sum += src[o + i * step];
  for (let i = 0; i < n; i++) {
    const lo = i - r;
    const hi = i + r;
    dst[o + i * step] = sum / (Math.min(hi, n - 1) - Math.max(lo, 0) + 1);
    if (hi + 1 < n) sum += src[o + (hi + 1) * step];
    if (lo >= 0) sum -= src[o + lo * step];
  }
}
