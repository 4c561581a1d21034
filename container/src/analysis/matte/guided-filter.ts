/**
 * Colour-guided filter (He, Sun & Tang, "Guided Image Filtering", 2013), the fast variant: the linear
 * coefficients are solved on a reduced copy of the photo and applied at full resolution. The output is
 * locally a linear function of the photo's colours, so the coarse mask snaps to the photo's own edges
 * (hair strands, soft shoulders) and is exactly as soft as the photo there.
 */
import { boxMean } from "@avatar-video/face-rig";

/** Three float planes (r, g, b in 0..1) of one image. */
export type Planes = [Float32Array, Float32Array, Float32Array];

export interface GuidedCoefficients {
  w: number;
  h: number;
  /** Box-averaged per-pixel coefficients: q = a·I + b. */
  a: Planes;
  b: Float32Array;
}

/** Solves q = a·I + b in every (2r+1)² window of `guide` (w×h) for the input `p`, ridge `eps`. */
export function guidedCoefficients(
  guide: Planes,
  p: Float32Array,
  w: number,
  h: number,
  r: number,
  eps: number,
): GuidedCoefficients {
  const n = w * h;
  const mean = (x: Float32Array) => boxMean(x, w, h, r);
  const product = (x: Float32Array, y: Float32Array) => {
    const o = new Float32Array(n);
    for (let i = 0; i < n; i++) o[i] = x[i] * y[i];
    return mean(o);
  };
  const [R, G, B] = guide;
  const [mR, mG, mB, mP] = [mean(R), mean(G), mean(B), mean(p)];
  const [pR, pG, pB] = [product(R, p), product(G, p), product(B, p)];
  const [rr, rg, rb, gg, gb, bb] = [
    product(R, R),
    product(R, G),
    product(R, B),
    product(G, G),
    product(G, B),
    product(B, B),
  ];
  const a: Planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r0 = mR[i],
      g0 = mG[i],
      b0 = mB[i],
      p0 = mP[i];
    // Covariance of the guide in the window (+ eps on the diagonal) and its covariance with p.
    const vrr = rr[i] - r0 * r0 + eps,
      vrg = rg[i] - r0 * g0,
      vrb = rb[i] - r0 * b0;
    const vgg = gg[i] - g0 * g0 + eps,
      vgb = gb[i] - g0 * b0,
      vbb = bb[i] - b0 * b0 + eps;
    const cr = pR[i] - r0 * p0,
      cg = pG[i] - g0 * p0,
      cb = pB[i] - b0 * p0;
    // Symmetric 3×3 inverse by cofactors.
    const i00 = vgg * vbb - vgb * vgb,
      i01 = vgb * vrb - vrg * vbb,
      i02 = vrg * vgb - vgg * vrb;
    const i11 = vrr * vbb - vrb * vrb,
      i12 = vrb * vrg - vrr * vgb,
      i22 = vrr * vgg - vrg * vrg;
    const det = vrr * i00 + vrg * i01 + vrb * i02;
    const ar = (cr * i00 + cg * i01 + cb * i02) / det;
    const ag = (cr * i01 + cg * i11 + cb * i12) / det;
    const ab = (cr * i02 + cg * i12 + cb * i22) / det;
    a[0][i] = ar;
    a[1][i] = ag;
    a[2][i] = ab;
    b[i] = p0 - ar * r0 - ag * g0 - ab * b0;
  }
  return { w, h, a: [mean(a[0]), mean(a[1]), mean(a[2])], b: mean(b) };
}

/**
 * q = a·I + b at the full resolution of `rgb` (W×H, 3 bytes per pixel), the coefficients sampled
 * bilinearly from their reduced grid (pixel centres aligned): each output row first blends two grid rows.
 */
export function applyGuided(c: GuidedCoefficients, rgb: Uint8Array, W: number, H: number): Float32Array {
  const q = new Float32Array(W * H);
  const xs = gridSteps(W, c.w);
  const ys = gridSteps(H, c.h);
  const planes = [...c.a, c.b];
  const rows = planes.map(() => new Float32Array(c.w));
  for (let y = 0; y < H; y++) {
    const o0 = ys.i[y] * c.w;
    const ty = ys.t[y];
    for (let k = 0; k < 4; k++) {
      const v = planes[k];
      const row = rows[k];
      for (let j = 0; j < c.w; j++) row[j] = v[o0 + j] + (v[o0 + c.w + j] - v[o0 + j]) * ty;
    }
    const [aR, aG, aB, b] = rows;
    for (let x = 0; x < W; x++) {
      const j = xs.i[x];
      const t = xs.t[x];
      const o = (y * W + x) * 3;
      const r = aR[j] + (aR[j + 1] - aR[j]) * t;
      const g = aG[j] + (aG[j + 1] - aG[j]) * t;
      const bl = aB[j] + (aB[j + 1] - aB[j]) * t;
      q[y * W + x] = (r * rgb[o] + g * rgb[o + 1] + bl * rgb[o + 2]) / 255 + b[j] + (b[j + 1] - b[j]) * t;
    }
  }
  return q;
}

/** For each of `n` output positions: the grid cell (of `m` ≥ 2) to its left/top and the blend weight. */
function gridSteps(n: number, m: number): { i: Int32Array; t: Float32Array } {
  const i = new Int32Array(n);
  const t = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const f = Math.min(m - 1, Math.max(0, ((k + 0.5) * m) / n - 0.5));
    i[k] = Math.min(m - 2, Math.floor(f));
    t[k] = f - i[k];
  }
  return { i, t };
}
