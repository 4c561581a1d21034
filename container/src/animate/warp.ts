/**
 * Backward piecewise-affine warp with bilinear sampling on one 8-bit image plane, plain JS.
 *
 * The renderer warps directly in YUV 4:2:0: the luma plane at full resolution and each chroma plane at
 * half resolution (vertex coordinates × 0.5), so no per-frame colour conversion is needed.
 * For every destination triangle the pixel centres inside it are mapped back to the source by the
 * triangle's affine transform. Edge intersections are computed canonically (from the edge's upper
 * endpoint) so neighbouring triangles share exact span ends: no gaps, no double writes.
 * Inner loop: 16.16 fixed-point source stepping, 8-bit bilinear weights, all int32 arithmetic.
 */

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const EMPTY_RECT: Rect = { x0: 0, y0: 0, x1: 0, y1: 0 };

export const isEmpty = (r: Rect) => !(r.x1 > r.x0 && r.y1 > r.y0);

/** Union of rects (empty rects ignored). */
export function unionRect(a: Rect, b: Rect): Rect {
  if (isEmpty(a)) return { ...b };
  if (isEmpty(b)) return { ...a };
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

export function intersectRect(a: Rect, b: Rect): Rect {
  const r = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return isEmpty(r) ? EMPTY_RECT : r;
}

/**
 * Warp `tris` of one plane, or of two planes with the same geometry (U and V). The planes are `pw`×`ph`
 * bytes at offsets `offA` (and `offB` when ≥ 0) in both `src` and `dst`; vertex positions (`srcXY` rest,
 * `dstXY` current, in luma pixels) are multiplied by `scale` (1 for luma, 0.5 for chroma). Only pixels
 * inside `clip` (plane coordinates) are written. Triangles whose source and destination coincide are
 * skipped (the caller keeps the destination equal to the source there).
 * Returns the bounding rect (plane coordinates) of the pixels written.
 */
export function warpPlane(
  src: Uint8Array,
  dst: Uint8Array,
  pw: number,
  ph: number,
  offA: number,
  offB: number,
  srcXY: Float32Array,
  dstXY: Float32Array,
  tris: Uint32Array,
  scale: number,
  clip: Rect,
): Rect {
  let bx0 = Infinity;
  let by0 = Infinity;
  let bx1 = -Infinity;
  let by1 = -Infinity;
  const safeX = pw - 2;
  const safeY = ph - 2;
  const two = offB >= 0;
  const dOff = offB - offA;
  for (let t = 0; t < tris.length; t += 3) {
    const i0 = tris[t];
    const i1 = tris[t + 1];
    const i2 = tris[t + 2];
    const X0 = dstXY[i0 * 2];
    const Y0 = dstXY[i0 * 2 + 1];
    const X1 = dstXY[i1 * 2];
    const Y1 = dstXY[i1 * 2 + 1];
    const X2 = dstXY[i2 * 2];
    const Y2 = dstXY[i2 * 2 + 1];
    const U0 = srcXY[i0 * 2];
    const V0 = srcXY[i0 * 2 + 1];
    const U1 = srcXY[i1 * 2];
    const V1 = srcXY[i1 * 2 + 1];
    const U2 = srcXY[i2 * 2];
    const V2 = srcXY[i2 * 2 + 1];
    if (X0 === U0 && Y0 === V0 && X1 === U1 && Y1 === V1 && X2 === U2 && Y2 === V2) continue;
    const x0 = X0 * scale;
    const y0 = Y0 * scale;
    const x1 = X1 * scale;
    const y1 = Y1 * scale;
    const x2 = X2 * scale;
    const y2 = Y2 * scale;
    const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (Math.abs(det) < 1e-6) continue;
    const ymin = Math.min(y0, y1, y2);
    const ymax = Math.max(y0, y1, y2);
    let rowStart = Math.ceil(ymin - 0.5);
    let rowEnd = Math.ceil(ymax - 0.5); // exclusive
    if (rowStart < clip.y0) rowStart = clip.y0;
    if (rowEnd > clip.y1) rowEnd = clip.y1;
    if (rowStart >= rowEnd) continue;
    const u0 = U0 * scale;
    const v0 = V0 * scale;
    const u1 = U1 * scale;
    const v1 = V1 * scale;
    const u2 = U2 * scale;
    const v2 = V2 * scale;
    // Affine dest → src: s = A·(p − p0) + s0.
    const inv = 1 / det;
    const a11 = ((u1 - u0) * (y2 - y0) - (u2 - u0) * (y1 - y0)) * inv;
    const a12 = ((u2 - u0) * (x1 - x0) - (u1 - u0) * (x2 - x0)) * inv;
    const a21 = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) * inv;
    const a22 = ((v2 - v0) * (x1 - x0) - (v1 - v0) * (x2 - x0)) * inv;
    // Source bbox (pixel-centre convention) decides whether the fast path (no clamping) is safe.
    const fast =
      Math.min(u0, u1, u2) - 0.5 >= 0.01 &&
      Math.min(v0, v1, v2) - 0.5 >= 0.01 &&
      Math.max(u0, u1, u2) - 0.5 <= safeX &&
      Math.max(v0, v1, v2) - 0.5 <= safeY;
    const dax = Math.round(a11 * 65536);
    const day = Math.round(a21 * 65536);
    if (rowStart < by0) by0 = rowStart;
    if (rowEnd > by1) by1 = rowEnd;
    const xmin = Math.max(clip.x0, Math.floor(Math.min(x0, x1, x2)));
    const xmax = Math.min(clip.x1, Math.ceil(Math.max(x0, x1, x2)) + 1);
    if (xmin < bx0) bx0 = xmin;
    if (xmax > bx1) bx1 = xmax;

    // Edges in canonical orientation (upper endpoint first; ties: left first) with precomputed slopes, so a
    // shared edge yields bit-identical x in both of its triangles.
    let e0x = x0, e0y = y0, e0qy = y1, e0s = 0;
    if (y0 > y1 || (y0 === y1 && x0 > x1)) { e0x = x1; e0y = y1; e0qy = y0; }
    if (e0qy !== e0y) e0s = (e0x === x0 ? x1 - x0 : x0 - x1) / (e0qy - e0y);
    let e1x = x1, e1y = y1, e1qy = y2, e1s = 0;
    if (y1 > y2 || (y1 === y2 && x1 > x2)) { e1x = x2; e1y = y2; e1qy = y1; }
    if (e1qy !== e1y) e1s = (e1x === x1 ? x2 - x1 : x1 - x2) / (e1qy - e1y);
    let e2x = x2, e2y = y2, e2qy = y0, e2s = 0;
    if (y2 > y0 || (y2 === y0 && x2 > x0)) { e2x = x0; e2y = y0; e2qy = y2; }
    if (e2qy !== e2y) e2s = (e2x === x2 ? x0 - x2 : x2 - x0) / (e2qy - e2y);

    for (let y = rowStart; y < rowEnd; y++) {
      const yc = y + 0.5;
      let xa = Infinity;
      let xb = -Infinity;
      if (yc >= e0y && yc < e0qy) {
        const xi = e0x + (yc - e0y) * e0s;
        if (xi < xa) xa = xi;
        if (xi > xb) xb = xi;
      }
      if (yc >= e1y && yc < e1qy) {
        const xi = e1x + (yc - e1y) * e1s;
        if (xi < xa) xa = xi;
        if (xi > xb) xb = xi;
      }
      if (yc >= e2y && yc < e2qy) {
        const xi = e2x + (yc - e2y) * e2s;
        if (xi < xa) xa = xi;
        if (xi > xb) xb = xi;
      }
      if (!(xb > xa)) continue;
      let xs = Math.ceil(xa - 0.5);
      let xe = Math.ceil(xb - 0.5); // exclusive
      if (xs < clip.x0) xs = clip.x0;
      if (xe > clip.x1) xe = clip.x1;
      if (xe <= xs) continue;
      const sx0 = a11 * (xs + 0.5 - x0) + a12 * (yc - y0) + u0 - 0.5;
      const sy0 = a21 * (xs + 0.5 - x0) + a22 * (yc - y0) + v0 - 0.5;
      let o = offA + y * pw + xs;
      const oe = offA + y * pw + xe;
      if (fast) {
        let sx = Math.round(sx0 * 65536);
        let sy = Math.round(sy0 * 65536);
        if (!two) {
          for (; o < oe; o++) {
            const fx = (sx >> 8) & 255;
            const fy = (sy >> 8) & 255;
            const p = offA + (sy >> 16) * pw + (sx >> 16);
            const top = src[p] * (256 - fx) + src[p + 1] * fx;
            const bot = src[p + pw] * (256 - fx) + src[p + pw + 1] * fx;
            dst[o] = (top * (256 - fy) + bot * fy + 32768) >> 16;
            sx += dax;
            sy += day;
          }
        } else {
          for (; o < oe; o++) {
            const fx = (sx >> 8) & 255;
            const fy = (sy >> 8) & 255;
            const gx = 256 - fx;
            const gy = 256 - fy;
            const p = offA + (sy >> 16) * pw + (sx >> 16);
            const q = p + dOff;
            dst[o] = ((src[p] * gx + src[p + 1] * fx) * gy + (src[p + pw] * gx + src[p + pw + 1] * fx) * fy + 32768) >> 16;
            dst[o + dOff] = ((src[q] * gx + src[q + 1] * fx) * gy + (src[q + pw] * gx + src[q + pw + 1] * fx) * fy + 32768) >> 16;
            sx += dax;
            sy += day;
          }
        }
      } else {
        let sxf = sx0;
        let syf = sy0;
        for (; o < oe; o++) {
          const cx = sxf < 0 ? 0 : sxf > pw - 1.001 ? pw - 1.001 : sxf;
          const cy = syf < 0 ? 0 : syf > ph - 1.001 ? ph - 1.001 : syf;
          const ix = cx | 0;
          const iy = cy | 0;
          const fx = ((cx - ix) * 256) | 0;
          const fy = ((cy - iy) * 256) | 0;
          const dx1 = ix + 1 < pw ? 1 : 0;
          const dy1 = iy + 1 < ph ? pw : 0;
          let p = offA + iy * pw + ix;
          dst[o] = ((src[p] * (256 - fx) + src[p + dx1] * fx) * (256 - fy) + (src[p + dy1] * (256 - fx) + src[p + dy1 + dx1] * fx) * fy + 32768) >> 16;
          if (two) {
            p += dOff;
            dst[o + dOff] = ((src[p] * (256 - fx) + src[p + dx1] * fx) * (256 - fy) + (src[p + dy1] * (256 - fx) + src[p + dy1 + dx1] * fx) * fy + 32768) >> 16;
          }
          sxf += a11;
          syf += a21;
        }
      }
    }
  }
  if (!(bx1 > bx0)) return EMPTY_RECT;
  return { x0: bx0, y0: by0, x1: bx1, y1: by1 };
}

/** Copy a rect of one plane (plane coordinates) from `src` to `dst` (same layout). */
export function copyPlaneRect(src: Uint8Array, dst: Uint8Array, off: number, pw: number, r: Rect): void {
  if (isEmpty(r)) return;
  const w = r.x1 - r.x0;
  for (let y = r.y0; y < r.y1; y++) {
    const o = off + y * pw + r.x0;
    dst.set(src.subarray(o, o + w), o);
  }
}
