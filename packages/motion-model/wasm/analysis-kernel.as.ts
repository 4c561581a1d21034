// AssemblyScript source of analysis-kernel.wasm (rebuild: scripts/build-wasm.sh). Not part of the TypeScript build.
// The live analysis's arithmetic with wasm SIMD: a dense layer of the viseme classifier (viseme-kernel.ts) and
// a frame's power spectrum, mel energies and band sums (frame-spectrum.ts). Pointers are byte offsets.

// ── Dense layer ─────────────────────────────────────────────────────────────────────────────────────────────
// y = W·x + b (ReLU if asked) in f32, four rows per pass: one load of four inputs serves the four rows. Per row
// four lane sums s_l (inputs i ≡ l mod 4, in order, each product and sum rounded to f32), then
// y = b + ((s_0 + s_2) + (s_1 + s_3)); viseme-net.ts does the same in JS with Math.fround. Layout: per block
// of four rows and per four inputs the rows' four weights each (16 f32), then the biases; n and m are
// multiples of 4 (padded with zeros), x and y f32.

export function dense(w: usize, x: usize, y: usize, n: i32, m: i32, relu: i32): void {
  const span = <usize>n << 4; // one block's weights, bytes
  const bias = w + (<usize>m >> 2) * span;
  const zero = f32x4.splat(0);
  for (let o = 0; o < m; o += 4) {
    const block = w + (<usize>o >> 2) * span;
    let a0 = zero, a1 = zero, a2 = zero, a3 = zero;
    for (let at: usize = 0, xi: usize = 0; at < span; at += 64, xi += 16) {
      const v = v128.load(x + xi);
      a0 = f32x4.add(a0, f32x4.mul(v128.load(block + at), v));
      a1 = f32x4.add(a1, f32x4.mul(v128.load(block + at + 16), v));
      a2 = f32x4.add(a2, f32x4.mul(v128.load(block + at + 32), v));
      a3 = f32x4.add(a3, f32x4.mul(v128.load(block + at + 48), v));
    }
    // Per row (s_0 + s_2) + (s_1 + s_3), the four rows in the lanes.
    const s01 = f32x4.add(v128.shuffle<f32>(a0, a1, 0, 1, 4, 5), v128.shuffle<f32>(a0, a1, 2, 3, 6, 7));
    const s23 = f32x4.add(v128.shuffle<f32>(a2, a3, 0, 1, 4, 5), v128.shuffle<f32>(a2, a3, 2, 3, 6, 7));
    const h = f32x4.add(v128.shuffle<f32>(s01, s23, 0, 2, 4, 6), v128.shuffle<f32>(s01, s23, 1, 3, 5, 7));
    const s = f32x4.add(v128.load(bias + (<usize>o << 2)), h);
    // ReLU as JS's `s < 0 ? 0 : s`.
    v128.store(y + (<usize>o << 2), relu ? f32x4.pmax(s, zero) : s);
  }
}

// ── Frame spectrum ──────────────────────────────────────────────────────────────────────────────────────────
// The JS analysis's numbers bit for bit (lipsync-frame.ts, fft.ts): the same f64 operations in the same order,
// two butterflies or bins per SIMD operation. The plan (i32 fields, filled by frame-spectrum.ts) names the
// tables: h (the complex FFT's size, n/2), the window (n f64), the bit-reversal (h i32), the FFT twiddles
// (wr, wi: entries h'..2h'−1 per stage of half-size h'), the real-split twiddles (rr, ri: h f64), the work
// arrays zr, zi, pw (h f64 each), the mel bands (count, then per band first bin, bins, weights' byte offset)
// and the band sums (count, then per sum its first and end bin); outputs f64.

@inline function field(plan: usize, i: i32): usize {
  return <usize>load<i32>(plan + (<usize>i << 2));
}

/** Σ x[k]², k < count, of f32 samples, summed in f64 in order (the loudness window). */
export function energy(x: usize, count: i32): f64 {
  let s: f64 = 0;
  for (let k = 0; k < count; k++) {
    const v = <f64>load<f32>(x + (<usize>k << 2));
    s += v * v;
  }
  return s;
}

/** The power spectrum of n f32 samples at x (window applied), then the mel energies and band sums. */
export function spectrum(plan: usize, x: usize): void {
  const h = <i32>field(plan, 0);
  const win = field(plan, 1);
  const rev = field(plan, 2);
  const zr = field(plan, 7);
  const zi = field(plan, 8);
  // Windowed even samples as real parts, odd ones as imaginary, stored at their bit-reversed places.
  for (let k = 0; k < h; k++) {
    const at = <usize>k << 3;
    const p = f64x2.mul(f64x2.promote_low_f32x4(v128.load64_zero(x + at)), v128.load(win + (at << 1)));
    const r = <usize>load<i32>(rev + (<usize>k << 2)) << 3;
    store<f64>(zr + r, f64x2.extract_lane(p, 0));
    store<f64>(zi + r, f64x2.extract_lane(p, 1));
  }
  fft(plan, h, zr, zi);
  power(plan, h, zr, zi);
  mel(plan);
  sums(plan);
}

@inline function fft(plan: usize, n: i32, re: usize, im: usize): void {
  // Size 2: x·1 is x; a pair's butterfly in one vector: [a + b, a − b].
  for (let a = 0; a < n; a += 2) {
    const at = <usize>a << 3;
    const r = v128.load(re + at);
    const i = v128.load(im + at);
    const rs = v128.shuffle<f64>(r, r, 1, 0);
    const is = v128.shuffle<f64>(i, i, 1, 0);
    v128.store(re + at, v128.shuffle<f64>(f64x2.add(r, rs), f64x2.sub(r, rs), 0, 2));
    v128.store(im + at, v128.shuffle<f64>(f64x2.add(i, is), f64x2.sub(i, is), 0, 2));
  }
  // Larger sizes: twiddles j, j+1 in the lanes (j = 0 computes x·1 − y·0: x up to the sign of a zero).
  const wr = field(plan, 3);
  const wi = field(plan, 4);
  for (let h = 2; h < n; h <<= 1) {
    const half = <usize>h << 3;
    for (let j = 0; j < h; j += 2) {
      const tw = <usize>(h + j) << 3;
      const cr = v128.load(wr + tw);
      const ci = v128.load(wi + tw);
      for (let a = j; a < n; a += h << 1) {
        const pa = <usize>a << 3;
        const pb = pa + half;
        const br = v128.load(re + pb);
        const bi = v128.load(im + pb);
        const xr = f64x2.sub(f64x2.mul(br, cr), f64x2.mul(bi, ci));
        const xi = f64x2.add(f64x2.mul(br, ci), f64x2.mul(bi, cr));
        const ar = v128.load(re + pa);
        const ai = v128.load(im + pa);
        v128.store(re + pb, f64x2.sub(ar, xr));
        v128.store(im + pb, f64x2.sub(ai, xi));
        v128.store(re + pa, f64x2.add(ar, xr));
        v128.store(im + pa, f64x2.add(ai, xi));
      }
    }
  }
}

/** Bins k (lanes) and their mirrors m = h − k: the two half-size spectra joined (makeRealPower). */
@inline function join(zr: usize, zi: usize, rr: usize, ri: usize, pw: usize, k: usize, rk: v128, ik: v128, rm: v128, im: v128): void {
  const half = f64x2.splat(0.5);
  const er = f64x2.mul(f64x2.add(rk, rm), half);
  const ei = f64x2.mul(f64x2.sub(ik, im), half);
  const or = f64x2.mul(f64x2.add(ik, im), half);
  const oi = f64x2.mul(f64x2.sub(rm, rk), half);
  const cr = v128.load(rr + (k << 3));
  const ci = v128.load(ri + (k << 3));
  const xr = f64x2.sub(f64x2.add(er, f64x2.mul(cr, or)), f64x2.mul(ci, oi));
  const xi = f64x2.add(f64x2.add(ei, f64x2.mul(cr, oi)), f64x2.mul(ci, or));
  v128.store(pw + (k << 3), f64x2.add(f64x2.mul(xr, xr), f64x2.mul(xi, xi)));
}

@inline function power(plan: usize, h: i32, zr: usize, zi: usize): void {
  const rr = field(plan, 5);
  const ri = field(plan, 6);
  const pw = field(plan, 9);
  // Bins 0 and 1 (mirrors 0 and h − 1).
  const m1 = <usize>(h - 1) << 3;
  const rm0 = f64x2.replace_lane(f64x2.splat(load<f64>(zr)), 1, load<f64>(zr + m1));
  const im0 = f64x2.replace_lane(f64x2.splat(load<f64>(zi)), 1, load<f64>(zi + m1));
  join(zr, zi, rr, ri, pw, 0, v128.load(zr), v128.load(zi), rm0, im0);
  // Bins k, k+1 ≥ 2: mirrors h−k, h−k−1 are one vector, lanes swapped.
  for (let k = 2; k < h; k += 2) {
    const at = <usize>k << 3;
    const mr = v128.load(zr + (<usize>(h - k - 1) << 3));
    const mi = v128.load(zi + (<usize>(h - k - 1) << 3));
    join(zr, zi, rr, ri, pw, <usize>k, v128.load(zr + at), v128.load(zi + at), v128.shuffle<f64>(mr, mr, 1, 0), v128.shuffle<f64>(mi, mi, 1, 0));
  }
}

/** Per mel band Σ w·pw over its bins, in order. */
@inline function mel(plan: usize): void {
  const pw = field(plan, 9);
  const table = field(plan, 11);
  const out = field(plan, 12);
  const bands = <i32>field(plan, 10);
  for (let b = 0; b < bands; b++) {
    const e = table + (<usize>(3 * b) << 2);
    const from = pw + (<usize>load<i32>(e) << 3);
    const len = load<i32>(e, 4);
    const w = <usize>load<i32>(e, 8);
    let s: f64 = 0;
    for (let k = 0; k < len; k++) s += load<f64>(w + (<usize>k << 3)) * load<f64>(from + (<usize>k << 3));
    store<f64>(out + (<usize>b << 3), s);
  }
}

/** Σ pw over each range of bins, in order. */
@inline function sums(plan: usize): void {
  const pw = field(plan, 9);
  const count = <i32>field(plan, 13);
  const table = field(plan, 14);
  const out = field(plan, 15);
  for (let r = 0; r < count; r++) {
    const to = load<i32>(table + (<usize>r << 3), 4);
    let s: f64 = 0;
    for (let k = load<i32>(table + (<usize>r << 3)); k < to; k++) s += load<f64>(pw + (<usize>k << 3));
    store<f64>(out + (<usize>r << 3), s);
  }
}

// ── Resampler ───────────────────────────────────────────────────────────────────────────────────────────────
// The stream resampler's outputs (resample.ts) bit for bit: output n at pos = n·step reads inputs
// c − half + 1 … c + half (c = ⌊pos⌋) times its phase's taps, summed in order in f64, rounded to f32; two
// outputs per f64x2 operation. The plan (f64 fields): step, half, phase scale (2^bits, or 0: taps computed per
// output from the kernel table as resample.ts's phaseTaps does), then byte offsets of the kept taps, the table
// (f32), its slopes (f64) and a scratch for two outputs' taps. Inputs before the stream are zeros here (JS skips
// them: adding a zero product to the sum leaves it as it is).

@inline function pf(plan: usize, i: i32): f64 {
  return load<f64>(plan + (<usize>i << 3));
}

/** The taps of output position pos (its c = ⌊pos⌋ known): kept, or computed into `into`. */
@inline function tapsAt(plan: usize, pos: f64, c: f64, width: i32, into: usize): usize {
  const frac = pos - c;
  const scale = pf(plan, 2);
  if (scale != 0) return <usize>pf(plan, 3) + (<usize>(<i32>(frac * scale) * width) << 3);
  const table = <usize>pf(plan, 4);
  const slope = <usize>pf(plan, 5);
  const half = <i32>pf(plan, 1);
  const f = frac * 64; // the table's entries per input sample (RES)
  const lo = Math.floor(f);
  const hi = Math.ceil(f);
  const dl = f - lo;
  const dh = hi - f;
  const ilo = <i32>lo;
  const ihi = <i32>hi;
  for (let t = 0; t < width; t++) {
    const m = t - half + 1;
    const j = <usize>(m <= 0 ? ilo - m * 64 : m * 64 - ihi);
    store<f64>(into + (<usize>t << 3), <f64>load<f32>(table + (j << 2)) + load<f64>(slope + (j << 3)) * (m <= 0 ? dl : dh));
  }
  return into;
}

/** Outputs n0 … n0 + count − 1 into out (f32); x holds the inputs from number k0 on (f32). */
export function resample(plan: usize, x: usize, k0: f64, n0: f64, count: i32, out: usize): void {
  const step = pf(plan, 0);
  const half = pf(plan, 1);
  const width = <i32>(2 * half);
  const scratch = <usize>pf(plan, 6);
  for (let o = 0; o < count; o += 2) {
    const last = o + 1 < count;
    const p0 = (n0 + o) * step;
    const p1 = last ? (n0 + o + 1) * step : p0;
    const c0 = Math.floor(p0);
    const c1 = Math.floor(p1);
    const w0 = tapsAt(plan, p0, c0, width, scratch);
    const w1 = tapsAt(plan, p1, c1, width, scratch + (<usize>width << 3));
    const x0 = x + (<usize>(<i32>(c0 - half + 1 - k0)) << 2);
    const x1 = x + (<usize>(<i32>(c1 - half + 1 - k0)) << 2);
    let acc = f64x2.splat(0);
    for (let t = 0; t < width; t++) {
      const at = <usize>t;
      const v = f64x2.promote_low_f32x4(v128.load32_lane(x1 + (at << 2), v128.load32_zero(x0 + (at << 2)), 1));
      const w = v128.load64_lane(w1 + (at << 3), v128.load64_splat(w0 + (at << 3)), 1);
      acc = f64x2.add(acc, f64x2.mul(v, w));
    }
    store<f32>(out + (<usize>o << 2), <f32>f64x2.extract_lane(acc, 0));
    if (last) store<f32>(out + (<usize>(o + 1) << 2), <f32>f64x2.extract_lane(acc, 1));
  }
}
