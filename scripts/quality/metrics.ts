/**
 * Measurement helpers of the talking-head quality script (scripts/quality.ts): audio envelopes and their
 * alignment, correlation, blink events, a masked SSIM on face-aligned luma, and the mouth interior's light.
 */
import { LIPS_LOWER_INNER, LIPS_UPPER_INNER } from "../../packages/face-rig/src/facemesh-topology";

/** RMS in dB per window of `win` samples centred every `hop` samples. */
export function envelopeDb(pcm: Float32Array, hop: number, win: number, n = Math.ceil(pcm.length / hop)): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = Math.round(i * hop + hop / 2);
    let s = 0;
    let k = 0;
    for (let j = Math.max(0, c - (win >> 1)); j < Math.min(pcm.length, c + (win >> 1)); j++, k++) s += pcm[j] * pcm[j];
    out[i] = k ? 10 * Math.log10(s / k + 1e-12) : -120;
  }
  return out;
}

export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  if (n < 3) return NaN;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb || 1e-12);
}

/**
 * Offset (in envelope steps) at which the clean voice best matches the soundtrack:
 * soundtrack[k + offset] ≈ voice[k]. Searched over every offset that keeps the voice inside.
 */
export function alignOffset(track: Float64Array, voice: Float64Array): number {
  const clip = (x: number) => Math.max(-60, x);
  let best = 0;
  let bestC = -Infinity;
  for (let off = 0; off + voice.length <= track.length + 5; off++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let k = 0; k < voice.length; k++)
      if (k + off < track.length) {
        a.push(clip(track[k + off]));
        b.push(clip(voice[k]));
      }
    const c = pearson(a, b);
    if (c > bestC) {
      bestC = c;
      best = off;
    }
  }
  return best;
}

export function percentile(v: ArrayLike<number>, p: number): number {
  const s = Array.from(v).sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.round((s.length - 1) * p)))] : NaN;
}

/** Runs of samples below `level` (NaN is not below); returns [start, end) index ranges. */
export function runsBelow(v: ArrayLike<number>, level: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= v.length; i++) {
    const below = i < v.length && v[i] < level;
    if (below && start < 0) start = i;
    if (!below && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** Median of `v` over a centred window of ±`half` samples (non-finite samples ignored; NaN if none). */
export function rollingMedian(v: ArrayLike<number>, half: number): Float64Array {
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const w: number[] = [];
    for (let j = Math.max(0, i - half); j <= Math.min(v.length - 1, i + half); j++)
      if (Number.isFinite(v[j])) w.push(v[j]);
    out[i] = w.length ? percentile(w, 0.5) : NaN;
  }
  return out;
}

export interface PerEyeBlinkRule {
  /** A blink reaches below `frac` × its eye's rolling median in at least one frame, in either eye. */
  frac: number;
  /** …and is the whole run of frames where either eye is below `soft` × its rolling median (its length). */
  soft: number;
  /** Half width of the rolling median, in seconds (it follows head-pose drift, not a 0.4 s blink). */
  medianHalfSeconds: number;
  /** Runs longer than this are not blinks (a pose change the median has not caught up with yet). */
  maxSeconds: number;
  /** Runs shorter than this many frames are not blinks (a detector glitch on one frame). */
  minFrames: number;
}

export const PER_EYE_BLINKS: PerEyeBlinkRule = {
  frac: 0.67,
  soft: 0.8,
  medianHalfSeconds: 1,
  maxSeconds: 0.6,
  minFrames: 2,
};

/**
 * Each eye's opening divided by its own rolling median, and the smallest of those ratios per frame. `eyes`
 * holds one series per eye and detector (both eyes as read by one or more face meshes): a mesh may refine
 * only one eye's lids when the head is turned, or misread a lid behind glasses rims (docs/animation.md,
 * "Why blinks are counted per eye", "Why blinks are read by both meshes"), so the mean hides a blink that
 * one reading sees clearly.
 */
export function eyeClosure(
  eyes: Array<ArrayLike<number>>,
  fps: number,
  rule: PerEyeBlinkRule = PER_EYE_BLINKS,
): Float64Array {
  const half = Math.round(rule.medianHalfSeconds * fps);
  const out = new Float64Array(eyes[0]?.length ?? 0).fill(Infinity);
  for (const eye of eyes) {
    const median = rollingMedian(eye, half);
    for (let i = 0; i < out.length; i++) {
      const ratio = eye[i] / median[i];
      if (Number.isFinite(ratio)) out[i] = Math.min(out[i], ratio);
    }
  }
  return out;
}

/**
 * Blink events from the eyes' openings (in any unit; one series per eye and detector): runs of frames where
 * any eye is below `rule.soft` of its own rolling median (dips that overlap or touch are one run), counted
 * when the run goes below `rule.frac` somewhere and lasts `minFrames`…`maxSeconds`. Hysteresis, because a
 * detector's opening wobbles inside one blink (0.38 → 0.69 → 0.51 of open on one closed eye). Returns [start, end).
 */
export function perEyeBlinkEvents(
  eyes: Array<ArrayLike<number>>,
  fps: number,
  rule: PerEyeBlinkRule = PER_EYE_BLINKS,
): Array<[number, number]> {
  const closure = eyeClosure(eyes, fps, rule);
  return runsBelow(closure, rule.soft).filter(
    ([a, b]) =>
      b - a >= rule.minFrames && b - a <= rule.maxSeconds * fps && Math.min(...closure.subarray(a, b)) < rule.frac,
  );
}

/** 2×3 similarity transform (least squares) mapping points `from` onto points `to`. */
export function similarity(
  from: Array<[number, number]>,
  to: Array<[number, number]>,
): [number, number, number, number, number, number] {
  const n = from.length;
  let fx = 0,
    fy = 0,
    tx = 0,
    ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i][0];
    fy += from[i][1];
    tx += to[i][0];
    ty += to[i][1];
  }
  fx /= n;
  fy /= n;
  tx /= n;
  ty /= n;
  let a = 0,
    b = 0,
    d = 0;
  for (let i = 0; i < n; i++) {
    const x = from[i][0] - fx,
      y = from[i][1] - fy,
      u = to[i][0] - tx,
      v = to[i][1] - ty;
    a += x * u + y * v;
    b += x * v - y * u;
    d += x * x + y * y;
  }
  a /= d || 1;
  b /= d || 1;
  // [u v] = [a -b; b a] [x y] + t
  return [a, -b, tx - a * fx + b * fy, b, a, ty - b * fx - a * fy];
}

/**
 * Mean SSIM (7×7 box windows) between reference luma `ref` and luma `img` resampled through `T`
 * (reference pixel → image pixel), over the pixels where `mask` is set (reference coordinates).
 */
export function maskedSsim(
  ref: Uint8Array,
  img: Uint8Array,
  W: number,
  H: number,
  mask: Uint8Array,
  box: { x0: number; y0: number; x1: number; y1: number },
  T: number[],
): number {
  const R = 3;
  const x0 = Math.max(R, box.x0),
    y0 = Math.max(R, box.y0),
    x1 = Math.min(W - R - 1, box.x1),
    y1 = Math.min(H - R - 1, box.y1);
  const w = x1 - x0 + 2 * R,
    h = y1 - y0 + 2 * R;
  if (w <= 2 * R || h <= 2 * R) return NaN;
  const A = new Float64Array(w * h),
    B = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const px = x + x0 - R,
        py = y + y0 - R;
      A[y * w + x] = ref[py * W + px];
      const qx = T[0] * px + T[1] * py + T[2],
        qy = T[3] * px + T[4] * py + T[5];
      const ix = Math.max(0, Math.min(W - 2, Math.floor(qx))),
        iy = Math.max(0, Math.min(H - 2, Math.floor(qy)));
      const fx = Math.min(1, Math.max(0, qx - ix)),
        fy = Math.min(1, Math.max(0, qy - iy));
      const o = iy * W + ix;
      B[y * w + x] =
        (img[o] * (1 - fx) + img[o + 1] * fx) * (1 - fy) + (img[o + W] * (1 - fx) + img[o + W + 1] * fx) * fy;
    }
  // Integral images of a, b, a², b², ab.
  const I = (f: (k: number) => number) => {
    const s = new Float64Array((w + 1) * (h + 1));
    for (let y = 0; y < h; y++) {
      let row = 0;
      for (let x = 0; x < w; x++) {
        row += f(y * w + x);
        s[(y + 1) * (w + 1) + x + 1] = s[y * (w + 1) + x + 1] + row;
      }
    }
    return s;
  };
  const Sa = I((k) => A[k]),
    Sb = I((k) => B[k]),
    Saa = I((k) => A[k] * A[k]),
    Sbb = I((k) => B[k] * B[k]),
    Sab = I((k) => A[k] * B[k]);
  const sum = (s: Float64Array, x: number, y: number) => {
    const a0 = x - R,
      b0 = y - R,
      a1 = x + R + 1,
      b1 = y + R + 1;
    return s[b1 * (w + 1) + a1] - s[b0 * (w + 1) + a1] - s[b1 * (w + 1) + a0] + s[b0 * (w + 1) + a0];
  };
  const N = (2 * R + 1) ** 2,
    C1 = (0.01 * 255) ** 2,
    C2 = (0.03 * 255) ** 2;
  let acc = 0,
    cnt = 0;
  for (let py = y0; py < y1; py++)
    for (let px = x0; px < x1; px++) {
      if (!mask[py * W + px]) continue;
      const x = px - x0 + R,
        y = py - y0 + R;
      const ma = sum(Sa, x, y) / N,
        mb = sum(Sb, x, y) / N;
      const va = sum(Saa, x, y) / N - ma * ma,
        vb = sum(Sbb, x, y) / N - mb * mb,
        cab = sum(Sab, x, y) / N - ma * mb;
      acc += ((2 * ma * mb + C1) * (2 * cab + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      cnt++;
    }
  return cnt ? acc / cnt : NaN;
}

/** Rasterise a polygon (even-odd) into `mask` with value `v`. */
export function fillPolygon(mask: Uint8Array, W: number, H: number, pts: Array<[number, number]>, v: number): void {
  let ymin = Infinity,
    ymax = -Infinity;
  for (const p of pts) {
    ymin = Math.min(ymin, p[1]);
    ymax = Math.max(ymax, p[1]);
  }
  for (let y = Math.max(0, Math.floor(ymin)); y <= Math.min(H - 1, Math.ceil(ymax)); y++) {
    const yc = y + 0.5;
    const xs: number[] = [];
    for (let i = 0; i < pts.length; i++) {
      const [ax, ay] = pts[i];
      const [bx, by] = pts[(i + 1) % pts.length];
      if (ay <= yc !== by <= yc) xs.push(ax + ((yc - ay) / (by - ay)) * (bx - ax));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      for (let x = Math.max(0, Math.ceil(xs[k] - 0.5)); x <= Math.min(W - 1, Math.floor(xs[k + 1] - 0.5)); x++)
        mask[y * W + x] = v;
    }
  }
}

/**
 * Inner-lip gap of a FaceMesh point list (pixels; 468 or 478 points): the mean of three upper/lower
 * inner-lip pairs (82–87, 13–14, 312–317) in units of the outer-eye-corner distance (33–263).
 */
export function innerLipGap(m: ArrayLike<ArrayLike<number>>): number {
  const d = (a: number, b: number) => Math.hypot(m[a][0] - m[b][0], m[a][1] - m[b][1]);
  return (d(82, 87) + d(13, 14) + d(312, 317)) / 3 / d(33, 263);
}

/**
 * Mean luma of the brightest third of the pixels inside the inner-lip contour of `pos` (mesh vertex
 * positions, [x, y] per vertex) on an S×S RGB frame: the teeth, where the mouth shows any (issue 25, point 2).
 */
export function interiorBrightThird(rgb: Uint8Array, S: number, pos: Float32Array): number {
  const mask = new Uint8Array(S * S);
  const ring = [...LIPS_UPPER_INNER, ...[...LIPS_LOWER_INNER].reverse()].map(
    (i) => [pos[i * 2], pos[i * 2 + 1]] as [number, number],
  );
  fillPolygon(mask, S, S, ring, 1);
  const luma: number[] = [];
  for (let i = 0; i < S * S; i++)
    if (mask[i]) luma.push(0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2]);
  luma.sort((a, b) => b - a);
  const third = luma.slice(0, Math.max(1, Math.floor(luma.length / 3)));
  return third.reduce((a, b) => a + b, 0) / third.length;
}
