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
  for (let y = 0; y < h; y++) rowMean(src, rows, y * w, w, r);
  columnMeans(rows, out, w, h, r);
  return out;
}

/** One row of `n` values starting at `o`: the mean over ±r along the row. */
function rowMean(src: Float32Array, dst: Float32Array, o: number, n: number, r: number): void {
  let sum = 0;
  const first = Math.min(r, n - 1);
  for (let i = 0; i <= first; i++) sum += src[o + i];
  for (let i = 0; i < n; i++) {
    const lo = i - r;
    const hi = i + r;
    dst[o + i] = sum / (Math.min(hi, n - 1) - Math.max(lo, 0) + 1);
    if (hi + 1 < n) sum += src[o + hi + 1];
    if (lo >= 0) sum -= src[o + lo];
  }
}

/**
 * The mean over ±r down every column: one running sum per column, the rows walked in memory order (a
 * column at a time would stride a whole row per step). The sums are the same, in the same order.
 */
function columnMeans(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  const sum = new Float64Array(w);
  const first = Math.min(r, h - 1);
  for (let y = 0; y <= first; y++) for (let x = 0; x < w; x++) sum[x] += src[y * w + x];
  for (let y = 0; y < h; y++) {
    const lo = y - r;
    const hi = y + r;
    const count = Math.min(hi, h - 1) - Math.max(lo, 0) + 1;
    const o = y * w;
    for (let x = 0; x < w; x++) dst[o + x] = sum[x] / count;
    if (hi + 1 < h) for (let x = 0, a = (hi + 1) * w; x < w; x++) sum[x] += src[a + x];
    if (lo >= 0) for (let x = 0, b = lo * w; x < w; x++) sum[x] -= src[b + x];
  }
}
