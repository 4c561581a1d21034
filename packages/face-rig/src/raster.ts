/**
 * Raster helpers on small boxes of pixels (the renderer's lid and eyewear painting, and the eyewear mask the
 * live client draws rigid): triangle coverage by rows, run lengths, growing a weight map.
 */

/** w[pixel] = max(w, value) over the pixels whose centres lie in triangle abc (box-relative). */
export function rasterMax(
  w: Float32Array,
  bx: number,
  by: number,
  bw: number,
  bh: number,
  p: Float32Array,
  scale: number,
  a: number,
  b: number,
  c: number,
  value: number,
): void {
  triangleRows(
    p[a * 2] * scale - bx,
    p[a * 2 + 1] * scale - by,
    p[b * 2] * scale - bx,
    p[b * 2 + 1] * scale - by,
    p[c * 2] * scale - bx,
    p[c * 2 + 1] * scale - by,
    bw,
    bh,
    (x0, x1, y) => {
      for (let o = y * bw + x0, e = y * bw + x1; o <= e; o++) if (w[o] < value) w[o] = value;
    },
  );
}

const ROW_SPAN = new Float64Array(2);

/** Widen span [l, r] by where the edge (x0, y0)–(x1, y1) crosses the horizontal line y = py. */
function cut(span: Float64Array, py: number, x0: number, y0: number, x1: number, y1: number): void {
  if (py < Math.min(y0, y1) || py > Math.max(y0, y1)) return;
  if (y0 === y1) {
    span[0] = Math.min(span[0], x0, x1);
    span[1] = Math.max(span[1], x0, x1);
    return;
  }
  const x = x0 + ((py - y0) * (x1 - x0)) / (y1 - y0);
  if (x < span[0]) span[0] = x;
  if (x > span[1]) span[1] = x;
}

/**
 * For each row y of a w × h grid, the pixels x0…x1 (inclusive) whose centres lie in the triangle (edges
 * included; degenerate triangles cover nothing): one interval per row, no per-pixel test.
 */
export function triangleRows(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  w: number,
  h: number,
  fn: (x0: number, x1: number, y: number) => void,
): void {
  if (Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) < 1e-9) return;
  const ya = Math.max(0, Math.ceil(Math.min(ay, by, cy) - 0.5)),
    yb = Math.min(h - 1, Math.floor(Math.max(ay, by, cy) - 0.5));
  const span = ROW_SPAN;
  for (let y = ya; y <= yb; y++) {
    const py = y + 0.5;
    span[0] = Infinity;
    span[1] = -Infinity;
    cut(span, py, ax, ay, bx, by);
    cut(span, py, bx, by, cx, cy);
    cut(span, py, cx, cy, ax, ay);
    const l = span[0],
      r = span[1];
    const x0 = Math.max(0, Math.ceil(l - 0.5 - 1e-9)),
      x1 = Math.min(w - 1, Math.floor(r - 0.5 + 1e-9));
    if (x0 <= x1) fn(x0, x1, y);
  }
}

/** Length of the run of set pixels each pixel belongs to, along lines of `n` pixels (`step` apart; `lines` lines `stride` apart). */
export function runs(mask: Uint8Array, n: number, lines: number, step: number, stride: number): Int32Array {
  const out = new Int32Array(mask.length);
  for (let l = 0; l < lines; l++) {
    let k = 0;
    while (k < n) {
      if (!mask[l * stride + k * step]) {
        k++;
        continue;
      }
      let e = k;
      while (e < n && mask[l * stride + e * step]) e++;
      for (let j = k; j < e; j++) out[l * stride + j * step] = e - k;
      k = e;
    }
  }
  return out;
}

/** Set pixels within r (chessboard) of a pixel ≥ `value`… to at least `value` (a ring of `value` around). */
export function grow(a: Float32Array, bw: number, bh: number, r: number, value: number): void {
  const src = Float32Array.from(a);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) {
      if (src[y * bw + x] < value) continue;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const X = x + dx,
            Y = y + dy;
          if (X >= 0 && Y >= 0 && X < bw && Y < bh && a[Y * bw + X] < value) a[Y * bw + X] = value;
        }
    }
}
