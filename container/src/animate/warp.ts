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
 * Warp `tris` of one plane. `src`/`dst` are planes of `pw`×`ph` bytes starting at `srcOff`/`dstOff`;
 * vertex positions (`srcXY` rest, `dstXY` current, luma pixels) are multiplied by `scale` (1 for luma,
 * 0.5 for chroma). Only pixels inside `clip` (plane coordinates) are written. Triangles whose source and
 * destination coincide are skipped (the caller keeps the destination equal to the source there).
 * Returns the bounding rect (plane coordinates) of the pixels written.
 */
export function warpPlane(
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
  pw: number,
  ph: number,
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
    const u0 = U0 * scale;
    const v0 = V0 * scale;
    const u1 = U1 * scale;
    const v1 = V1 * scale;
    const u2 = U2 * scale;
    const v2 = V2 * scale;
    const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (Math.abs(det) < 1e-6) continue;
    const ymin = Math.min(y0, y1, y2);
    const ymax = Math.max(y0, y1, y2);
    let rowStart = Math.ceil(ymin - 0.5);
    let rowEnd = Math.ceil(ymax - 0.5); // exclusive
    if (rowStart < clip.y0) rowStart = clip.y0;
    if (rowEnd > clip.y1) rowEnd = clip.y1;
    if (rowStart >= rowEnd) continue;
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

    for (let y = rowStart; y < rowEnd; y++) {
      const yc = y + 0.5;
      let xa = Infinity;
      let xb = -Infinity;
      {
        let px = x0, py = y0, qx = x1, qy = y1;
        if (py > qy || (py === qy && px > qx)) { px = x1; py = y1; qx = x0; qy = y0; }
        if (yc >= py && yc < qy) {
          const xi = px + ((yc - py) * (qx - px)) / (qy - py);
          if (xi < xa) xa = xi;
          if (xi > xb) xb = xi;
        }
      }
      {
        let px = x1, py = y1, qx = x2, qy = y2;
        if (py > qy || (py === qy && px > qx)) { px = x2; py = y2; qx = x1; qy = y1; }
        if (yc >= py && yc < qy) {
          const xi = px + ((yc - py) * (qx - px)) / (qy - py);
          if (xi < xa) xa = xi;
          if (xi > xb) xb = xi;
        }
      }
      {
        let px = x2, py = y2, qx = x0, qy = y0;
        if (py > qy || (py === qy && px > qx)) { px = x0; py = y0; qx = x2; qy = y2; }
        if (yc >= py && yc < qy) {
          const xi = px + ((yc - py) * (qx - px)) / (qy - py);
          if (xi < xa) xa = xi;
          if (xi > xb) xb = xi;
        }
      }
      if (!(xb > xa)) continue;
      let xs = Math.ceil(xa - 0.5);
      let xe = Math.ceil(xb - 0.5); // exclusive
      if (xs < clip.x0) xs = clip.x0;
      if (xe > clip.x1) xe = clip.x1;
      if (xe <= xs) continue;
      const sx0 = a11 * (xs + 0.5 - x0) + a12 * (yc - y0) + u0 - 0.5;
      const sy0 = a21 * (xs + 0.5 - x0) + a22 * (yc - y0) + v0 - 0.5;
      let o = dstOff + y * pw + xs;
      const oe = dstOff + y * pw + xe;
      if (fast) {
        let sx = Math.round(sx0 * 65536);
        let sy = Math.round(sy0 * 65536);
        for (; o < oe; o++) {
          const fx = (sx >> 8) & 255;
          const fy = (sy >> 8) & 255;
          const p = srcOff + (sy >> 16) * pw + (sx >> 16);
          const top = src[p] * (256 - fx) + src[p + 1] * fx;
          const bot = src[p + pw] * (256 - fx) + src[p + pw + 1] * fx;
          dst[o] = (top * (256 - fy) + bot * fy + 32768) >> 16;
          sx += dax;
          sy += day;
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
          const p = srcOff + iy * pw + ix;
          const dx1 = ix + 1 < pw ? 1 : 0;
          const dy1 = iy + 1 < ph ? pw : 0;
          const top = src[p] * (256 - fx) + src[p + dx1] * fx;
          const bot = src[p + dy1] * (256 - fx) + src[p + dy1 + dx1] * fx;
          dst[o] = (top * (256 - fy) + bot * fy + 32768) >> 16;
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
