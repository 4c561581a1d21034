/**
 * The person's own colours under a matte (Forte & Pitié, "Approximate Fast Foreground Colour Estimation",
 * ICIP 2021). Where the matte is partial, a photo pixel mixes the person with the old backdrop; composited
 * on a new background as is, that mix shows as a rim of the old backdrop's colour (a halo). Two passes of
 * alpha-weighted box blurs estimate the foreground and background colours near each pixel and keep the
 * share of the pixel that the matte gives the person. Where alpha is 0 the nearby person colour is carried
 * outwards, so resampling the layer never pulls backdrop in.
 *
 * The pixels just inside the outline are opaque but carry the backdrop's hue too: a JPEG keeps colour at
 * half resolution and light bounces off a wall onto hair, so dark hair in front of a yellow frame ends in a
 * rim of olive pixels. There the colour is the person's further in (spill suppression), at the pixel's own
 * brightness. Everywhere else where alpha is 255 the photo is kept exactly.
 */
import { boxMean } from "./box-mean";

/**
 * Foreground RGB (3 bytes per pixel) for the photo `rgb` and its matte `alpha` (W×H). The blur radii
 * follow the image size (90 and 6 px at 1024, the paper's values).
 */
export function matteForeground(rgb: Uint8Array, alpha: Uint8Array, W: number, H: number): Uint8Array {
  const n = W * H;
  const side = Math.max(W, H);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = alpha[i] / 255;
  const image: Float32Array[] = [0, 1, 2].map((c) => {
    const p = new Float32Array(n);
    for (let i = 0; i < n; i++) p[i] = rgb[i * 3 + c] / 255;
    return p;
  });
  // Wide pass: colours far from the edge; narrow pass: the edge. Both take the backdrop from the photo
  // itself (the paper feeds the wide pass's smooth backdrop into the narrow one; on window blinds and
  // wooden frames next to hair that left a tint of the old backdrop in the strands).
  let fg = image;
  for (const r of [Math.max(2, Math.round((side * 90) / 1024)), Math.max(1, Math.round((side * 6) / 1024))]) {
    fg = fuse(image, fg, a, W, H, r);
  }
  for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) if (alpha[i] === 255) fg[c][i] = image[c][i];
  solveMixed(fg, image, alpha, W, H);
  suppressSpill(fg, alpha, W, H);
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(Math.min(1, Math.max(0, fg[c][i])) * 255);
  return out;
}

/**
 * Where the backdrop next to a mixed pixel is seen bare (alpha 0 within 4×SPILL px), the pixel is solved
 * for its foreground, I = αF + (1 − α)B with B that bare backdrop's mean: exact for a plain backdrop,
 * trusted from alpha ½ up (dividing by a small alpha amplifies noise), the blurred estimate below that.
 */
function solveMixed(fg: Float32Array[], image: Float32Array[], alpha: Uint8Array, W: number, H: number): void {
  const n = W * H;
  const r = Math.max(1, Math.round((Math.max(W, H) * 4 * SPILL) / 1024));
  const bare = new Float32Array(n);
  for (let i = 0; i < n; i++) bare[i] = alpha[i] === 0 ? 1 : 0;
  const reach = boxMean(bare, W, H, r);
  const tmp = new Float32Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) tmp[i] = image[c][i] * bare[i];
    const back = boxMean(tmp, W, H, r);
    for (let i = 0; i < n; i++) {
      const a = alpha[i] / 255;
      if (a === 0 || a === 1 || reach[i] < 1e-3) continue;
      const trust = Math.min(1, Math.max(0, (a - 0.25) / 0.25));
      const solved = (image[c][i] - (1 - a) * (back[i] / reach[i])) / a;
      fg[c][i] += trust * (solved - fg[c][i]);
    }
  }
}

/**
 * Nearly opaque pixels within SPILL px (at 1024) of the outline take the interior's colour (opaque pixels at
 * least that far in, averaged over 2×SPILL) moved to their own brightness; the interior is untouched.
 */
const SPILL = 6;

function suppressSpill(fg: Float32Array[], alpha: Uint8Array, W: number, H: number): void {
  const n = W * H;
  const e = Math.max(1, Math.round((Math.max(W, H) * SPILL) / 1024));
  const opaque = new Float32Array(n);
  for (let i = 0; i < n; i++) opaque[i] = alpha[i] === 255 ? 1 : 0;
  const near = boxMean(opaque, W, H, e);
  const inner = new Float32Array(n);
  for (let i = 0; i < n; i++) inner[i] = near[i] > 0.999 ? 1 : 0;
  const weight = boxMean(inner, W, H, 2 * e);
  const share = boxMean(inner, W, H, 1);
  const tmp = new Float32Array(n);
  const interior = fg.map((plane) => {
    for (let i = 0; i < n; i++) tmp[i] = plane[i] * inner[i];
    return boxMean(tmp, W, H, 2 * e);
  });
  for (let i = 0; i < n; i++) {
    if (alpha[i] < 128 || weight[i] < 1e-3) continue;
    // 0 inside the interior, rising over 1 px outside it; only for nearly opaque pixels (the mixed ones
    // are the estimate's above).
    const w = (1 - share[i]) * Math.min(1, (alpha[i] - 128) / 102);
    if (w === 0) continue;
    const c = [interior[0][i] / weight[i], interior[1][i] / weight[i], interior[2][i] / weight[i]];
    const shift = luma(fg[0][i], fg[1][i], fg[2][i]) - luma(c[0], c[1], c[2]);
    for (let k = 0; k < 3; k++) fg[k][i] += w * (c[k] + shift - fg[k][i]);
  }
}

const luma = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** One pass: blurred foreground/background estimates and the foreground corrected towards the photo. */
function fuse(
  image: Float32Array[],
  fg: Float32Array[],
  a: Float32Array,
  W: number,
  H: number,
  r: number,
): Float32Array[] {
  const n = W * H;
  const blurA = boxMean(a, W, H, r);
  const tmp = new Float32Array(n);
  const next: Float32Array[] = [];
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) tmp[i] = fg[c][i] * a[i];
    const f = boxMean(tmp, W, H, r);
    for (let i = 0; i < n; i++) tmp[i] = image[c][i] * (1 - a[i]);
    const b = boxMean(tmp, W, H, r);
    const I = image[c];
    for (let i = 0; i < n; i++) {
      const fi = f[i] / (blurA[i] + 1e-5);
      const bi = b[i] / (1 - blurA[i] + 1e-5);
      const v = fi + a[i] * (I[i] - a[i] * fi - (1 - a[i]) * bi);
      f[i] = v < 0 ? 0 : Math.min(v, 1);
    }
    next.push(f);
  }
  return next;
}
