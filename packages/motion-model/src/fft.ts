/**
 * The FFTs of the frame analysis (lipsync-frame.ts): a radix-2 complex FFT with its twiddles planned once, and
 * a real frame's power spectrum by a half-size complex FFT. frame-spectrum.ts runs the same arithmetic in wasm
 * from these tables.
 */

/**
 * What an FFT of size n reuses from call to call: the bit-reversal swaps, and per stage the twiddle factors
 * exactly as the butterfly recurrence (w ← w·e^(−2πi/len), from 1) produces them, so the transform is the
 * textbook loop's bit for bit without recomputing them for every frame. Stage of half-size h: entries h..2h−1.
 */
interface FftPlan {
  swaps: Uint16Array;
  wr: Float64Array;
  wi: Float64Array;
}
const plans = new Map<number, FftPlan>();

export function fftPlan(n: number): FftPlan {
  let plan = plans.get(n);
  if (plan) return plan;
  const swaps: number[] = [];
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swaps.push(i, j);
  }
  const wr = new Float64Array(Math.max(n, 1));
  const wi = new Float64Array(Math.max(n, 1));
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const [sr, si] = [Math.cos(ang), Math.sin(ang)];
    const h = len >> 1;
    let cr = 1;
    let ci = 0;
    for (let j = 0; j < h; j++) {
      wr[h + j] = cr;
      wi[h + j] = ci;
      const t = cr * sr - ci * si;
      ci = cr * si + ci * sr;
      cr = t;
    }
  }
  plan = { swaps: Uint16Array.from(swaps), wr, wi };
  plans.set(n, plan);
  return plan;
}

/** In-place iterative radix-2 complex FFT (n ≤ 65 536). */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  const { swaps, wr, wi } = fftPlan(n);
  for (let s = 0; s < swaps.length; s += 2) {
    const i = swaps[s];
    const j = swaps[s + 1];
    let t = re[i];
    re[i] = re[j];
    re[j] = t;
    t = im[i];
    im[i] = im[j];
    im[j] = t;
  }
  for (let h = 1; h < n; h <<= 1) {
    const len = h << 1;
    // Twiddle 1 first: x·1 − y·0 is x (up to the sign of a zero, which no power or magnitude sees).
    for (let a = 0; a < n; a += len) {
      const b = a + h;
      const xr = re[b];
      const xi = im[b];
      re[b] = re[a] - xr;
      im[b] = im[a] - xi;
      re[a] += xr;
      im[a] += xi;
    }
    for (let j = 1; j < h; j++) {
      const cr = wr[h + j];
      const ci = wi[h + j];
      for (let a = j; a < n; a += len) {
        const b = a + h;
        const xr = re[b] * cr - im[b] * ci;
        const xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/**
 * The power spectrum |X[k]|², k < n/2, of n real samples times `window` (all 1 if none), by one complex FFT of
 * n/2 points (the even samples as real parts, the odd ones as imaginary), split into the two half-size spectra
 * and joined by the twiddles: half the butterflies of a complex FFT of the n samples, the same values to
 * rounding (≈ 1e-16 relative).
 */
export function makeRealPower(
  n: number,
  window: Float64Array = new Float64Array(n).fill(1),
): (x: Float64Array, pw: Float64Array) => void {
  const h = n >> 1;
  const zr = new Float64Array(h);
  const zi = new Float64Array(h);
  const { wr, wi } = realTwiddles(n);
  return (x, pw) => {
    for (let k = 0; k < h; k++) {
      zr[k] = x[2 * k] * window[2 * k];
      zi[k] = x[2 * k + 1] * window[2 * k + 1];
    }
    fft(zr, zi);
    for (let k = 0; k < h; k++) {
      const m = k === 0 ? 0 : h - k;
      const er = (zr[k] + zr[m]) * 0.5; // the even samples' spectrum
      const ei = (zi[k] - zi[m]) * 0.5;
      const or = (zi[k] + zi[m]) * 0.5; // the odd samples'
      const oi = (zr[m] - zr[k]) * 0.5;
      const xr = er + wr[k] * or - wi[k] * oi;
      const xi = ei + wr[k] * oi + wi[k] * or;
      pw[k] = xr * xr + xi * xi;
    }
  };
}

/** The twiddles that join the two half-size spectra of n real samples: e^(−2πik/n), k < n/2. */
export function realTwiddles(n: number): { wr: Float64Array; wi: Float64Array } {
  const h = n >> 1;
  return {
    wr: Float64Array.from({ length: h }, (_, k) => Math.cos((2 * Math.PI * k) / n)),
    wi: Float64Array.from({ length: h }, (_, k) => -Math.sin((2 * Math.PI * k) / n)),
  };
}
