/**
 * The live stream's hot arithmetic (packages/motion-model/src/resample.ts, levels.ts) is the plain formula it
 * stands for, bit for bit: the resampler's per-phase taps against the windowed-sinc interpolation written
 * out per tap, and the level histograms' percentiles against a sorted window.
 */
import { describe, expect, it } from "vitest";
import { fft, makeRealPower } from "../src/fft";
import { prng } from "../src/life";
import { CausalLevels } from "../src/levels";
import { StreamResampler } from "../src/resample";

/** The interpolation as written per tap: the kernel table read at |pos − k|·64, linearly between entries. */
function direct(x: Float32Array, inRate: number, outRate: number): number[] {
  const step = inRate / outRate;
  const cutoff = Math.min(1, outRate / inRate) * 0.95;
  const half = Math.ceil(8 / cutoff);
  const table = new Float32Array(half * 64 + 2);
  for (let i = 0; i <= half * 64; i++) {
    const t = i / 64;
    const sx = t * cutoff;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * sx) / (Math.PI * sx);
    const w = 0.42 + 0.5 * Math.cos((Math.PI * t) / half) + 0.08 * Math.cos((2 * Math.PI * t) / half);
    table[i] = cutoff * sinc * w;
  }
  const out: number[] = [];
  for (let n = 0; Math.floor(n * step) + half < x.length; n++) {
    const pos = n * step;
    const c = Math.floor(pos);
    let acc = 0;
    for (let k = c - half + 1; k <= c + half; k++) {
      if (k < 0) continue;
      const d = Math.abs(pos - k) * 64;
      const j = Math.floor(d);
      acc += x[k] * (table[j] + (table[j + 1] - table[j]) * (d - j));
    }
    out.push(Math.fround(acc));
  }
  return out;
}

/** The radix-2 FFT as written before its plan: twiddles by the recurrence inside every stage, butterflies in order. */
function textbookFft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const [wr, wi] = [Math.cos(ang), Math.sin(ang)];
    for (let i = 0; i < n; i += len) {
      let [cr, ci] = [1, 0];
      for (let j = 0; j < len >> 1; j++) {
        const [a, b] = [i + j, i + j + (len >> 1)];
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        [cr, ci] = [cr * wr - ci * wi, cr * wi + ci * wr];
      }
    }
  }
}

describe("stream arithmetic", () => {
  it("transforms exactly as the textbook FFT: complex input of any size, and real frames' power spectra", () => {
    const rand = prng(7);
    for (const n of [1, 2, 4, 8, 64, 512, 4096])
      for (const real of [false, true]) {
        const re = Float64Array.from({ length: n }, () => rand() - 0.5);
        const im = Float64Array.from({ length: n }, () => (real ? 0 : rand() - 0.5));
        const [re2, im2] = [re.slice(), im.slice()];
        fft(re, im);
        textbookFft(re2, im2);
        // The one freedom the plan takes: x·1 − y·0 = x may differ in the sign of a zero, which no power sees.
        const power = (r: Float64Array, i: Float64Array) => Array.from(r, (x, k) => x * x + i[k]! * i[k]!);
        expect(power(re, im), `${n} ${real ? "real" : "complex"}`).toEqual(power(re2, im2));
        if (!real) expect([...re, ...im], `${n} complex`).toEqual([...re2, ...im2]);
      }
  });

  it("resamples 8 to 96 kHz to 16 kHz exactly as the per-tap formula, in chunks of any size, in wasm and JS", () => {
    for (const rate of [8_000, 11_025, 22_050, 24_000, 44_100, 48_000, 96_000]) {
      const rand = prng(rate);
      const x = new Float32Array(rate * 2).map((_, i) => Math.sin(i * 0.013) * 0.4 + (rand() - 0.5) * 0.2);
      const want = direct(x, rate, 16_000);
      for (const [maxChunk, arithmetic] of [
        [1, "wasm"],
        [37, "js"],
        [960, "wasm"],
        [20_000, "js"],
        [20_000, "wasm"],
      ] as const) {
        const r = new StreamResampler(rate, 16_000, arithmetic === "js" ? { arithmetic } : {});
        const got: number[] = [];
        for (let i = 0; i < x.length; ) {
          const n = 1 + Math.floor(rand() * maxChunk);
          got.push(...r.push(x.subarray(i, i + n)));
          i += n;
        }
        expect(got.length, `${rate} Hz`).toBe(want.length);
        expect(got, `${rate} Hz in chunks up to ${maxChunk}, ${arithmetic}`).toEqual(want);
      }
    }
  });

  it("takes a real frame's power spectrum by a half-size FFT: the full complex FFT's to rounding", () => {
    const rand = prng(11);
    for (const n of [4, 64, 512]) {
      const power = makeRealPower(n);
      for (let r = 0; r < 50; r++) {
        // Speech-like: a few tones over noise, some frames near silence.
        const scale = r % 5 === 0 ? 1e-4 : 1;
        const x = Float64Array.from(
          { length: n },
          (_, i) => scale * (Math.sin(i * 0.3 + r) + 0.5 * Math.sin(i * 1.7) + rand() - 0.5),
        );
        const [re, im] = [x.slice(), new Float64Array(n)];
        textbookFft(re, im);
        const got = new Float64Array(n / 2);
        power(x, got);
        const total = re.reduce((acc, v, k) => acc + v * v + im[k]! * im[k]!, 0);
        for (let k = 0; k < n / 2; k++) {
          const want = re[k]! * re[k]! + im[k]! * im[k]!;
          // Rounding, relative to the bin or (bins near zero) to the frame's energy; a wrong twiddle is off by the bin's size.
          expect(Math.abs(got[k]! - want), `${n} points, bin ${k}`).toBeLessThanOrEqual(1e-12 * want + 1e-15 * total);
        }
      }
    }
  });

  it("takes the speaker's floor and level from percentiles of its windows, as sorting them would", () => {
    const rand = prng(3);
    const levels = new CausalLevels();
    const all: number[] = [];
    const active: number[] = [];
    const bin = (db: number) => Math.max(0, Math.min(240, Math.round((db + 120) / 0.5)));
    const pct = (xs: number[], p: number) => {
      const s = xs.slice().sort((a, b) => a - b);
      return s[Math.min(s.length - 1, Math.max(0, Math.round((s.length - 1) * p)))]!;
    };
    for (let i = 0; i < 3000; i++) {
      // Speech-like loudness: pauses near −70 dB, words −40…−15 dB, now and then a clipped or silent frame.
      const db = rand() < 0.3 ? -70 + rand() * 8 : rand() < 0.02 ? (rand() < 0.5 ? -120 : 5) : -40 + rand() * 25;
      const { floor, ref } = levels.update(db);
      all.push(bin(db));
      const prior = Array.from({ length: 20 }, () => bin(-65));
      const wantFloor = Math.max(-90, Math.min(-120 + 0.5 * pct([...all.slice(-2000), ...prior], 0.1), -25));
      expect(floor).toBe(wantFloor);
      active.push(db > floor + 6 && db > -75 ? bin(db) : -1);
      const long = active.slice(-2000).filter((b) => b >= 0);
      const short = active.slice(-300).filter((b) => b >= 0);
      const globalRef = long.length ? -120 + 0.5 * pct(long, 0.9) : -120;
      const local = short.length >= 10 ? -120 + 0.5 * pct(short, 0.9) : globalRef;
      expect(ref).toBe(Math.max(local, globalRef - 12));
    }
  });
});
