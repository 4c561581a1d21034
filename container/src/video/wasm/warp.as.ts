// AssemblyScript source of warp.wasm (rebuild: scripts/build-wasm.sh). Not part of the TypeScript build.
//
// Backward piecewise-affine warp with bilinear sampling of one 8-bit plane, or of two planes with the same
// geometry (U and V), for a whole triangle list in one call. It mirrors the earlier JS rasteriser
// operation for operation (f64 set-up, 16.16 fixed-point stepping, 8-bit weights), so output is
// bit-identical; it runs on the painter's shared memory, pointers are byte offsets into it.
//
// Edge intersections are computed canonically (from the edge's upper endpoint, ties: left first) so a
// shared edge gives bit-identical span ends in both triangles: no gaps, no double writes.

// JS Math.round (halves towards +∞); f64.nearest would round halves to even.
@inline function round(x: f64): f64 {
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

const LANES = i32x4(0, 1, 2, 3);
const M255 = i32x4(255, 255, 255, 255);
const C256 = i32x4(256, 256, 256, 256);
const HALF = i32x4(32768, 32768, 32768, 32768);

// The 2×2 neighbourhoods of 4 samples (top-left at p0…p3): bytes (left, right) of the top rows in
// i16 lanes 0–3, of the bottom rows in lanes 4–7.
@inline function gather(p0: usize, p1: usize, p2: usize, p3: usize, pw: usize): v128 {
  let v = v128.load16_lane(p0, i32x4.splat(0), 0);
  v = v128.load16_lane(p1, v, 1);
  v = v128.load16_lane(p2, v, 2);
  v = v128.load16_lane(p3, v, 3);
  v = v128.load16_lane(p0 + pw, v, 4);
  v = v128.load16_lane(p1 + pw, v, 5);
  v = v128.load16_lane(p2 + pw, v, 6);
  return v128.load16_lane(p3 + pw, v, 7);
}

// Bilinear blend of gathered neighbourhoods, the scalar formula lane-wise in i32 (exactly the same result):
// ((l·(256−fx) + r·fx)·(256−fy) + (l'·(256−fx) + r'·fx)·fy + 32768) >> 16.
@inline function blend(v: v128, wx: v128, fy: v128, gy: v128): v128 {
  const top = i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_u(v), wx);
  const bot = i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_u(v), wx);
  return i32x4.shr_u(i32x4.add(i32x4.add(i32x4.mul(top, gy), i32x4.mul(bot, fy)), HALF), 16);
}

// Store the low bytes of the 4 i32 lanes (all 0…255).
@inline function store32(o: usize, r: v128): void {
  const b = i16x8.narrow_i32x4_u(r, r);
  v128.store32_lane(o, i8x16.narrow_i16x8_u(b, b), 0);
}

// What a call writes into the triangles' pixels at their current positions.
const WARP = 0; // bilinear samples of `src` at the rest positions
const COPY = 1; // `src`'s own pixel at the same position (an already warped frame)
const FILL = 2; // the constant `fill`

/**
 * Warp `ntri` triangles (u32 vertex index triples at `tris`) of the plane(s) at `offA` (and `offB` when
 * ≥ 0) of `src` into `dst` (same layout, `pw`×`ph` bytes per plane). Vertex positions (f32 pairs, luma
 * pixels: `srcXY` rest, `dstXY` current) are multiplied by `scale`. Only pixels inside the clip rect
 * [cx0, cx1)×[cy0, cy1) are written; triangles that did not move are skipped. The bounding rect of the
 * pixels written is stored as 4 i32 (x0, y0, x1, y1) at `out` (x1 ≤ x0 when nothing was written).
 * `mode` COPY or FILL writes exactly the pixels WARP would, without sampling.
 */
export function warp(
  src: usize, dst: usize, pw: i32, ph: i32, offA: i32, offB: i32,
  srcXY: usize, dstXY: usize, tris: usize, ntri: i32, scale: f64,
  cx0: i32, cy0: i32, cx1: i32, cy1: i32, out: usize, mode: i32, fill: i32,
): void {
  let bx0 = i32.MAX_VALUE, by0 = i32.MAX_VALUE, bx1 = i32.MIN_VALUE, by1 = i32.MIN_VALUE;
  const safeX = <f64>(pw - 2), safeY = <f64>(ph - 2);
  const two = offB >= 0;
  const dOff = <usize>(offB - offA);
  const sA = src + <usize>offA;
  for (let t = 0; t < ntri; t++) {
    const tp = tris + <usize>t * 12;
    const i0 = <usize>load<u32>(tp) << 3, i1 = <usize>load<u32>(tp, 4) << 3, i2 = <usize>load<u32>(tp, 8) << 3;
    const X0 = load<f32>(dstXY + i0), Y0 = load<f32>(dstXY + i0, 4);
    const X1 = load<f32>(dstXY + i1), Y1 = load<f32>(dstXY + i1, 4);
    const X2 = load<f32>(dstXY + i2), Y2 = load<f32>(dstXY + i2, 4);
    const U0 = load<f32>(srcXY + i0), V0 = load<f32>(srcXY + i0, 4);
    const U1 = load<f32>(srcXY + i1), V1 = load<f32>(srcXY + i1, 4);
    const U2 = load<f32>(srcXY + i2), V2 = load<f32>(srcXY + i2, 4);
    if (X0 == U0 && Y0 == V0 && X1 == U1 && Y1 == V1 && X2 == U2 && Y2 == V2) continue;
    const x0 = <f64>X0 * scale, y0 = <f64>Y0 * scale;
    const x1 = <f64>X1 * scale, y1 = <f64>Y1 * scale;
    const x2 = <f64>X2 * scale, y2 = <f64>Y2 * scale;
    const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (Math.abs(det) < 1e-6) continue;
    let rs = Math.ceil(Math.min(Math.min(y0, y1), y2) - 0.5);
    let re = Math.ceil(Math.max(Math.max(y0, y1), y2) - 0.5); // exclusive
    if (rs < <f64>cy0) rs = <f64>cy0;
    if (re > <f64>cy1) re = <f64>cy1;
    if (rs >= re) continue;
    const rowStart = <i32>rs, rowEnd = <i32>re;
    const u0 = <f64>U0 * scale, v0 = <f64>V0 * scale;
    const u1 = <f64>U1 * scale, v1 = <f64>V1 * scale;
    const u2 = <f64>U2 * scale, v2 = <f64>V2 * scale;
    // Affine dest → src: s = A·(p − p0) + s0.
    const inv = 1 / det;
    const a11 = ((u1 - u0) * (y2 - y0) - (u2 - u0) * (y1 - y0)) * inv;
    const a12 = ((u2 - u0) * (x1 - x0) - (u1 - u0) * (x2 - x0)) * inv;
    const a21 = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) * inv;
    const a22 = ((v2 - v0) * (x1 - x0) - (v1 - v0) * (x2 - x0)) * inv;
    // Source bbox (pixel-centre convention) decides whether the fast path (no clamping) is safe.
    const fast =
      Math.min(Math.min(u0, u1), u2) - 0.5 >= 0.01 &&
      Math.min(Math.min(v0, v1), v2) - 0.5 >= 0.01 &&
      Math.max(Math.max(u0, u1), u2) - 0.5 <= safeX &&
      Math.max(Math.max(v0, v1), v2) - 0.5 <= safeY;
    const dax = <i32>round(a11 * 65536);
    const day = <i32>round(a21 * 65536);
    if (rowStart < by0) by0 = rowStart;
    if (rowEnd > by1) by1 = rowEnd;
    const xmin = max(cx0, <i32>Math.floor(Math.min(Math.min(x0, x1), x2)));
    const xmax = min(cx1, <i32>Math.ceil(Math.max(Math.max(x0, x1), x2)) + 1);
    if (xmin < bx0) bx0 = xmin;
    if (xmax > bx1) bx1 = xmax;

    let e0x = x0, e0y = y0, e0qy = y1, e0s = 0.0;
    if (y0 > y1 || (y0 == y1 && x0 > x1)) { e0x = x1; e0y = y1; e0qy = y0; }
    if (e0qy != e0y) e0s = (e0x == x0 ? x1 - x0 : x0 - x1) / (e0qy - e0y);
    let e1x = x1, e1y = y1, e1qy = y2, e1s = 0.0;
    if (y1 > y2 || (y1 == y2 && x1 > x2)) { e1x = x2; e1y = y2; e1qy = y1; }
    if (e1qy != e1y) e1s = (e1x == x1 ? x2 - x1 : x1 - x2) / (e1qy - e1y);
    let e2x = x2, e2y = y2, e2qy = y0, e2s = 0.0;
    if (y2 > y0 || (y2 == y0 && x2 > x0)) { e2x = x0; e2y = y0; e2qy = y2; }
    if (e2qy != e2y) e2s = (e2x == x2 ? x0 - x2 : x2 - x0) / (e2qy - e2y);

    for (let y = rowStart; y < rowEnd; y++) {
      const yc = <f64>y + 0.5;
      let xa = Infinity, xb = -Infinity;
      if (yc >= e0y && yc < e0qy) { const xi = e0x + (yc - e0y) * e0s; if (xi < xa) xa = xi; if (xi > xb) xb = xi; }
      if (yc >= e1y && yc < e1qy) { const xi = e1x + (yc - e1y) * e1s; if (xi < xa) xa = xi; if (xi > xb) xb = xi; }
      if (yc >= e2y && yc < e2qy) { const xi = e2x + (yc - e2y) * e2s; if (xi < xa) xa = xi; if (xi > xb) xb = xi; }
      if (!(xb > xa)) continue;
      let fs = Math.ceil(xa - 0.5), fe = Math.ceil(xb - 0.5); // exclusive
      if (fs < <f64>cx0) fs = <f64>cx0;
      if (fe > <f64>cx1) fe = <f64>cx1;
      if (fe <= fs) continue;
      const xs = <i32>fs, xe = <i32>fe;
      const sx0 = a11 * (<f64>xs + 0.5 - x0) + a12 * (yc - y0) + u0 - 0.5;
      const sy0 = a21 * (<f64>xs + 0.5 - x0) + a22 * (yc - y0) + v0 - 0.5;
      let o = dst + <usize>(offA + y * pw + xs);
      const oe = o + <usize>(xe - xs);
      if (mode == COPY) {
        const at = sA + <usize>(y * pw + xs);
        memory.copy(o, at, <usize>(xe - xs));
        if (two) memory.copy(o + dOff, at + dOff, <usize>(xe - xs));
      } else if (mode == FILL) {
        memory.fill(o, <u8>fill, <usize>(xe - xs));
        if (two) memory.fill(o + dOff, <u8>fill, <usize>(xe - xs));
      } else if (fast) {
        let sx = <i32>round(sx0 * 65536), sy = <i32>round(sy0 * 65536);
        // 4 pixels per step with wasm SIMD: lane k samples at (sx + k·dax, sy + k·day).
        let vsx = i32x4.add(i32x4.splat(sx), i32x4.mul(LANES, i32x4.splat(dax)));
        let vsy = i32x4.add(i32x4.splat(sy), i32x4.mul(LANES, i32x4.splat(day)));
        const stepX = i32x4.splat(dax << 2), stepY = i32x4.splat(day << 2);
        const vpw = i32x4.splat(pw);
        for (; o + 4 <= oe; o += 4) {
          const fx = v128.and(i32x4.shr_s(vsx, 8), M255);
          const fy = v128.and(i32x4.shr_s(vsy, 8), M255);
          // i16 weight pairs (256 − fx, fx) per pixel, matching the (left, right) byte pairs gathered below.
          const wx = v128.or(i32x4.sub(C256, fx), i32x4.shl(fx, 16));
          const gy = i32x4.sub(C256, fy);
          const idx = i32x4.add(i32x4.mul(i32x4.shr_s(vsy, 16), vpw), i32x4.shr_s(vsx, 16));
          const p0 = sA + <usize>i32x4.extract_lane(idx, 0), p1 = sA + <usize>i32x4.extract_lane(idx, 1);
          const p2 = sA + <usize>i32x4.extract_lane(idx, 2), p3 = sA + <usize>i32x4.extract_lane(idx, 3);
          store32(o, blend(gather(p0, p1, p2, p3, <usize>pw), wx, fy, gy));
          if (two) store32(o + dOff, blend(gather(p0 + dOff, p1 + dOff, p2 + dOff, p3 + dOff, <usize>pw), wx, fy, gy));
          vsx = i32x4.add(vsx, stepX);
          vsy = i32x4.add(vsy, stepY);
        }
        sx = i32x4.extract_lane(vsx, 0);
        sy = i32x4.extract_lane(vsy, 0);
        for (; o < oe; o++) {
          const fx = (sx >> 8) & 255, fy = (sy >> 8) & 255;
          const gx = 256 - fx, gy = 256 - fy;
          const p = sA + <usize>((sy >> 16) * pw + (sx >> 16));
          const pp = p + <usize>pw;
          store<u8>(o, ((<i32>load<u8>(p) * gx + <i32>load<u8>(p, 1) * fx) * gy + (<i32>load<u8>(pp) * gx + <i32>load<u8>(pp, 1) * fx) * fy + 32768) >> 16);
          if (two) {
            const q = p + dOff, qq = pp + dOff;
            store<u8>(o + dOff, ((<i32>load<u8>(q) * gx + <i32>load<u8>(q, 1) * fx) * gy + (<i32>load<u8>(qq) * gx + <i32>load<u8>(qq, 1) * fx) * fy + 32768) >> 16);
          }
          sx += dax;
          sy += day;
        }
      } else {
        let sxf = sx0, syf = sy0;
        const mx = <f64>pw - 1.001, my = <f64>ph - 1.001;
        for (; o < oe; o++) {
          const cx = sxf < 0 ? 0 : sxf > mx ? mx : sxf;
          const cy = syf < 0 ? 0 : syf > my ? my : syf;
          const ix = <i32>cx, iy = <i32>cy;
          const fx = <i32>((cx - <f64>ix) * 256), fy = <i32>((cy - <f64>iy) * 256);
          const gx = 256 - fx, gy = 256 - fy;
          const dx1 = <usize>(ix + 1 < pw ? 1 : 0);
          const dy1: usize = iy + 1 < ph ? <usize>pw : 0;
          let p = sA + <usize>(iy * pw + ix);
          store<u8>(o, ((<i32>load<u8>(p) * gx + <i32>load<u8>(p + dx1) * fx) * gy + (<i32>load<u8>(p + dy1) * gx + <i32>load<u8>(p + dy1 + dx1) * fx) * fy + 32768) >> 16);
          if (two) {
            p += dOff;
            store<u8>(o + dOff, ((<i32>load<u8>(p) * gx + <i32>load<u8>(p + dx1) * fx) * gy + (<i32>load<u8>(p + dy1) * gx + <i32>load<u8>(p + dy1 + dx1) * fx) * fy + 32768) >> 16);
          }
          sxf += a11;
          syf += a21;
        }
      }
    }
  }
  store<i32>(out, bx0);
  store<i32>(out, by0, 4);
  store<i32>(out, bx1, 8);
  store<i32>(out, by1, 12);
}
