// AssemblyScript source of warp.wasm (rebuild: scripts/build-wasm.sh). Not part of the TypeScript build.
//
// Backward piecewise-affine warp with bilinear sampling of one 8-bit plane, or of two planes with the same
// geometry (U and V), for a whole triangle list in one call. It mirrors the earlier JS rasteriser
// operation for operation (f64 set-up, 16.16 fixed-point stepping, 8-bit weights), so output is
// bit-identical; it runs on the painter's shared memory, pointers are byte offsets into it.
//
// Fast path: 8 pixels a step with wasm SIMD, each sample row loaded once as 16 bytes and the samples'
// pairs picked out by byte swizzles (the 16 bytes may run up to 14 past a plane's end: no source frame is
// the last thing in the arena). Rows are set up in a branch-free pass before their pixels.
//
// Edge intersections are computed canonically (from the edge's upper endpoint, ties: left first) so a
// shared edge gives bit-identical span ends in both triangles: no gaps, no double writes.

// JS Math.round (halves towards +∞) to i32; f64.nearest would round halves to even. The half test is a
// comparison added as 0 or 1, not a branch or a float select: the fractions are random, and a branch here
// would be mispredicted half the time, twice a row.
@inline function round(x: f64): i32 {
  const r = Math.floor(x);
  return <i32>r + <i32>(x - r >= 0.5);
}

const LANES = i32x4(0, 1, 2, 3);
const LANES_HI = i32x4(4, 5, 6, 7);
const BYTES = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
const FRAC = i32x4(0xff00, 0xff00, 0xff00, 0xff00);
const C256 = i16x8(256, 256, 256, 256, 256, 256, 256, 256);
const HALF = i32x4(32768, 32768, 32768, 32768);
const ONE = i16x8(1, 1, 1, 1, 1, 1, 1, 1);
// Swizzle index high bytes: out of range, so each selected byte lands zero-extended in an i16 lane.
const ZX = i16x8(-32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768);

// The 8-bit fractions of 8 lanes of 16.16 coordinates (lanes 0–3 in `lo`, 4–7 in `hi`) as i16 lanes.
@inline function frac8(lo: v128, hi: v128): v128 {
  return i16x8.shr_u(i16x8.narrow_i32x4_u(v128.and(lo, FRAC), v128.and(hi, FRAC)), 8);
}

// The scalar formula on 8 lanes, exactly: ((l·gx + r·fx)·gy + (l'·gx + r'·fx)·fy + 32768) >> 16. The
// inner sums fit u16 (≤ 255·256), the products are widened to u32. Result: 8 bytes in the low half.
@inline function blend8(lt: v128, rt: v128, lb: v128, rb: v128, fx: v128, gx: v128, fy: v128, gy: v128): v128 {
  const top = i16x8.add(i16x8.mul(lt, gx), i16x8.mul(rt, fx));
  const bot = i16x8.add(i16x8.mul(lb, gx), i16x8.mul(rb, fx));
  const lo = i32x4.add(i32x4.add(i32x4.extmul_low_i16x8_u(top, gy), i32x4.extmul_low_i16x8_u(bot, fy)), HALF);
  const hi = i32x4.add(i32x4.add(i32x4.extmul_high_i16x8_u(top, gy), i32x4.extmul_high_i16x8_u(bot, fy)), HALF);
  const w = i16x8.narrow_i32x4_u(i32x4.shr_u(lo, 16), i32x4.shr_u(hi, 16));
  return i8x16.narrow_i16x8_u(w, w);
}

// 8 samples whose 2×2 neighbourhoods lie within 16 bytes of rows `p`, `p`+pw (and `p`+2·pw for the lanes
// in `down`, one row lower, when `split`): each row loaded once, the samples picked out by byte swizzles.
@inline function sample8(
  p: usize, pw: usize, split: bool, down: v128, il: v128, ir: v128, fx: v128, gx: v128, fy: v128, gy: v128,
): v128 {
  const T = v128.load(p), B = v128.load(p + pw);
  let lt = i8x16.swizzle(T, il), rt = i8x16.swizzle(T, ir);
  let lb = i8x16.swizzle(B, il), rb = i8x16.swizzle(B, ir);
  if (split) {
    const C = v128.load(p + (pw << 1));
    lt = v128.bitselect(lb, lt, down);
    rt = v128.bitselect(rb, rt, down);
    lb = v128.bitselect(i8x16.swizzle(C, il), lb, down);
    rb = v128.bitselect(i8x16.swizzle(C, ir), rb, down);
  }
  return blend8(lt, rt, lb, rb, fx, gx, fy, gy);
}

// Store the first `n` (1…8) bytes of `r`.
@inline function storeN(o: usize, r: v128, n: i32): void {
  if (n == 8) {
    v128.store64_lane(o, r, 0);
    return;
  }
  if (n & 4) { v128.store32_lane(o, r, 0); r = i64x2.shr_u(r, 32); o += 4; }
  if (n & 2) { v128.store16_lane(o, r, 0); r = i64x2.shr_u(r, 16); o += 2; }
  if (n & 1) v128.store8_lane(o, r, 0);
}

// One bilinear sample at 16.16 (sx, sy), the scalar formula.
@inline function pixel(p: usize, sx: i32, sy: i32, pw: usize): u8 {
  const fx = (sx >> 8) & 255, fy = (sy >> 8) & 255;
  const gx = 256 - fx, gy = 256 - fy;
  const pp = p + pw;
  return <u8>(((<i32>load<u8>(p) * gx + <i32>load<u8>(p, 1) * fx) * gy + (<i32>load<u8>(pp) * gx + <i32>load<u8>(pp, 1) * fx) * fy + 32768) >> 16);
}

// Byte k of the low half set for k < n: the bytes a step of n (< 8) pixels writes.
@inline function firstBytes(n: i32): v128 {
  return i8x16.lt_s(BYTES, i8x16.splat(<i8>n));
}

/**
 * `k` (1…8) pixels of the fast path (samples and their neighbours inside the plane) at `o` from 16.16
 * (sx, sy) stepping (dax, day) a pixel; `lx`/`hx`, `ly`/`hy` hold lane j's offsets from lane 0 (lanes 0–3,
 * 4–7), the spare lanes of a short step repeat its last pixel. A short step writes its bytes into the 8
 * at `o` read back first when those lie before `olim` (the clip's end on this row: no other thread
 * writes there), else byte by byte. Samples spread over more than 16 bytes or two rows (a strongly
 * stretched triangle) are taken pixel by pixel.
 */
@inline function step8(
  o: usize, olim: usize, k: i32, sA: usize, sx: i32, sy: i32, dax: i32, day: i32, pw: i32, two: bool, dOff: usize,
  lx: v128, hx: v128, ly: v128, hy: v128,
): void {
  const x0 = sx >> 16, y0 = sy >> 16;
  const x1 = (sx + (k - 1) * dax) >> 16, y1 = (sy + (k - 1) * day) >> 16;
  if (abs(x1 - x0) <= 14 && abs(y1 - y0) <= 1) {
    const xmin = min(x0, x1), ymin = min(y0, y1);
    const vxl = i32x4.add(i32x4.splat(sx), lx), vxh = i32x4.add(i32x4.splat(sx), hx);
    const vyl = i32x4.add(i32x4.splat(sy), ly), vyh = i32x4.add(i32x4.splat(sy), hy);
    const fx = frac8(vxl, vxh), fy = frac8(vyl, vyh);
    const gx = i16x8.sub(C256, fx), gy = i16x8.sub(C256, fy);
    const bx = i32x4.splat(xmin);
    const dx = i16x8.narrow_i32x4_s(i32x4.sub(i32x4.shr_s(vxl, 16), bx), i32x4.sub(i32x4.shr_s(vxh, 16), bx));
    const il = v128.or(dx, ZX), ir = i16x8.add(il, ONE);
    const split = y1 != y0;
    let down = i16x8.splat(0);
    if (split) {
      const by = i32x4.splat(ymin);
      down = i16x8.neg(i16x8.narrow_i32x4_s(i32x4.sub(i32x4.shr_s(vyl, 16), by), i32x4.sub(i32x4.shr_s(vyh, 16), by)));
    }
    const p = sA + <usize>(ymin * pw + xmin);
    const r = sample8(p, <usize>pw, split, down, il, ir, fx, gx, fy, gy);
    const r2 = two ? sample8(p + dOff, <usize>pw, split, down, il, ir, fx, gx, fy, gy) : r;
    if (k == 8) {
      v128.store64_lane(o, r, 0);
      if (two) v128.store64_lane(o + dOff, r2, 0);
    } else if (o + 8 <= olim) {
      const m = firstBytes(k);
      v128.store64_lane(o, v128.bitselect(r, v128.load64_zero(o), m), 0);
      if (two) v128.store64_lane(o + dOff, v128.bitselect(r2, v128.load64_zero(o + dOff), m), 0);
    } else {
      storeN(o, r, k);
      if (two) storeN(o + dOff, r2, k);
    }
  } else {
    for (let j = 0; j < k; j++) {
      const x = sx + j * dax, y = sy + j * day;
      const p = sA + <usize>((y >> 16) * pw + (x >> 16));
      store<u8>(o + <usize>j, pixel(p, x, y, <usize>pw));
      if (two) store<u8>(o + dOff + <usize>j, pixel(p + dOff, x, y, <usize>pw));
    }
  }
}

/**
 * One span of the fast path, `n` pixels at `o` from (sx, sy): eight a step, the last step overlapping
 * the one before it (the same pixels get the same values) so that only spans under 8 pixels take a
 * short step. `dxl`/`dxh`, `dyl`/`dyh`: lane j's offsets j·dax, j·day.
 */
@inline function span8(
  o: usize, n: i32, olim: usize, sA: usize, sx: i32, sy: i32, dax: i32, day: i32, pw: i32, two: bool, dOff: usize,
  dxl: v128, dxh: v128, dyl: v128, dyh: v128,
): void {
  if (n >= 8) {
    for (let j = 0; ; ) {
      step8(o + <usize>j, olim, 8, sA, sx + j * dax, sy + j * day, dax, day, pw, two, dOff, dxl, dxh, dyl, dyh);
      if (j + 8 >= n) break;
      j = min(j + 8, n - 8);
    }
  } else {
    const last = i32x4.splat(n - 1);
    const kl = i32x4.min_s(LANES, last), kh = i32x4.min_s(LANES_HI, last);
    const vdx = i32x4.splat(dax), vdy = i32x4.splat(day);
    step8(o, olim, n, sA, sx, sy, dax, day, pw, two, dOff, i32x4.mul(kl, vdx), i32x4.mul(kh, vdx), i32x4.mul(kl, vdy), i32x4.mul(kh, vdy));
  }
}

// `n` bytes from `s` to `d` (not overlapping), 16 a step: spans are short, a runtime memory.copy costs more.
@inline function copyBytes(d: usize, s: usize, n: i32): void {
  let j = 0;
  for (; j + 16 <= n; j += 16) v128.store(d + <usize>j, v128.load(s + <usize>j));
  for (; j < n; j++) store<u8>(d + <usize>j, load<u8>(s + <usize>j));
}

// `n` bytes of `v` at `d`, 16 a step.
@inline function fillBytes(d: usize, v: u8, n: i32): void {
  const V = i8x16.splat(<i8>v);
  let j = 0;
  for (; j + 16 <= n; j += 16) v128.store(d + <usize>j, V);
  for (; j < n; j++) store<u8>(d + <usize>j, v);
}

// Rows set up per pass, and the bytes of one row's set-up in the caller's scratch (xs, n, 16.16 sx, sy as
// i32; sx, sy as f64).
const CHUNK = 64;
const ROW = 32;

/**
 * Warp `ntri` triangles (u32 vertex index triples at `tris`) of the plane(s) at `offA` (and `offB` when
 * ≥ 0) of `src` into `dst` (same layout, `pw`×`ph` bytes per plane). Vertex positions (f32 pairs, luma
 * pixels: `srcXY` rest, `dstXY` current) are multiplied by `scale`. Only pixels inside the clip rect
 * [cx0, cx1)×[cy0, cy1) are written; triangles that did not move are skipped. The bounding rect of the
 * pixels written is stored as 4 i32 (x0, y0, x1, y1) at `out` (x1 ≤ x0 when nothing was written).
 *
 * Mirror (`mask` ≠ 0): the spans of triangle t with a non-zero byte at `mask` + t are also copied to
 * `mirror` bytes further on (another frame of the arena), and 255 is written at `mirrorAlpha` bytes past
 * that copy of plane A when `mirrorAlpha` ≥ 0 (its alpha plane): the person layer takes the video's
 * warped pixels while they are written, with no second pass over the triangles (paint-band.ts).
 */
export function warp(
  src: usize, dst: usize, pw: i32, ph: i32, offA: i32, offB: i32,
  srcXY: usize, dstXY: usize, tris: usize, ntri: i32, scale: f64,
  cx0: i32, cy0: i32, cx1: i32, cy1: i32, out: usize, scratch: usize,
  mask: usize, mirror: i32, mirrorAlpha: i32,
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
    const mirrored = mask != 0 && load<u8>(mask + <usize>t) != 0;
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
    const dax = round(a11 * 65536);
    const day = round(a21 * 65536);
    // Lane k's offsets from lane 0 (k·dax, k·day), lanes 0–3 and 4–7.
    const dxl = i32x4.mul(LANES, i32x4.splat(dax)), dxh = i32x4.add(dxl, i32x4.splat(dax << 2));
    const dyl = i32x4.mul(LANES, i32x4.splat(day)), dyh = i32x4.add(dyl, i32x4.splat(day << 2));
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

    // An edge covers the rows whose centre lies in [its upper y, its lower y): rows [ceil(y − ½), ceil(y' − ½)),
    // exactly (y − ½ is exact for these f32-born values). Every row of the triangle is covered by the long
    // edge (top to bottom vertex) and one short edge, the upper short edge down to row `mid`, then the lower:
    // the span's ends come from those two, with no per-row tests of all three.
    const r0a = Math.ceil(e0y - 0.5), r0b = Math.ceil(e0qy - 0.5);
    const r1a = Math.ceil(e1y - 0.5), r1b = Math.ceil(e1qy - 0.5);
    const r2a = Math.ceil(e2y - 0.5), r2b = Math.ceil(e2qy - 0.5);
    const top = Math.min(Math.min(r0a, r1a), r2a), bottom = Math.max(Math.max(r0b, r1b), r2b);
    let lx = e2x, ly = e2y, ls = e2s;
    let ax = e0x, ay = e0y, as = e0s, aa = r0a, ab = r0b;
    let bx = e1x, by = e1y, bs = e1s, ba = r1a, bb = r1b;
    if (r0a == top && r0b == bottom) {
      lx = e0x; ly = e0y; ls = e0s;
      ax = e2x; ay = e2y; as = e2s; aa = r2a; ab = r2b;
    } else if (r1a == top && r1b == bottom) {
      lx = e1x; ly = e1y; ls = e1s;
      bx = e2x; by = e2y; bs = e2s; ba = r2a; bb = r2b;
    }
    if (ba < aa || (ba == aa && bb < ab)) {
      let t = ax; ax = bx; bx = t;
      t = ay; ay = by; by = t;
      t = as; as = bs; bs = t;
      ab = bb;
    }
    const mid = <i32>ab;

    // Rows in chunks of CHUNK, two passes: the spans' set-up (a long chain of dependent float steps) for
    // all rows of the chunk without branches, so the CPU overlaps the rows' chains; then the pixels.
    for (let c0 = rowStart; c0 < rowEnd; c0 += CHUNK) {
      const c1 = min(rowEnd, c0 + CHUNK);
      for (let y = c0, r = scratch; y < c1; y++, r += ROW) {
        const yc = <f64>y + 0.5;
        const upper = y < mid;
        const ex = select<f64>(ax, bx, upper), ey = select<f64>(ay, by, upper), es = select<f64>(as, bs, upper);
        const xl = lx + (yc - ly) * ls, xo = ex + (yc - ey) * es;
        const xa = select<f64>(xo, xl, xo < xl), xb = select<f64>(xo, xl, xo > xl);
        const ca = Math.ceil(xa - 0.5), cb = Math.ceil(xb - 0.5); // exclusive
        const fs = select<f64>(<f64>cx0, ca, ca < <f64>cx0), fe = select<f64>(<f64>cx1, cb, cb > <f64>cx1);
        const xs = <i32>fs;
        const sx0 = a11 * (<f64>xs + 0.5 - x0) + a12 * (yc - y0) + u0 - 0.5;
        const sy0 = a21 * (<f64>xs + 0.5 - x0) + a22 * (yc - y0) + v0 - 0.5;
        store<i32>(r, xs);
        store<i32>(r, select<i32>(<i32>fe - xs, 0, xb > xa && fe > fs), 4);
        store<i32>(r, round(sx0 * 65536), 8);
        store<i32>(r, round(sy0 * 65536), 12);
        store<f64>(r, sx0, 16);
        store<f64>(r, sy0, 24);
      }
      for (let y = c0, r = scratch; y < c1; y++, r += ROW) {
        const n = load<i32>(r, 4);
        if (n <= 0) continue;
        const xs = load<i32>(r);
        let o = dst + <usize>(offA + y * pw + xs);
        const oe = o + <usize>n;
        const o0 = o;
        if (fast) {
          const olim = dst + <usize>(offA + y * pw + cx1);
          span8(o, n, olim, sA, load<i32>(r, 8), load<i32>(r, 12), dax, day, pw, two, dOff, dxl, dxh, dyl, dyh);
        } else {
          let sxf = load<f64>(r, 16), syf = load<f64>(r, 24);
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
        if (mirrored) {
          const m = o0 + <usize>mirror;
          copyBytes(m, o0, n);
          if (two) copyBytes(m + dOff, o0 + dOff, n);
          if (mirrorAlpha >= 0) fillBytes(m + <usize>mirrorAlpha, 255, n);
        }
      }
    }
  }
  store<i32>(out, bx0);
  store<i32>(out, by0, 4);
  store<i32>(out, bx1, 8);
  store<i32>(out, by1, 12);
}
