/**
 * The person's own colours under a matte (Forte & Pitié, "Approximate Fast Foreground Colour Estimation",
 * ICIP 2021). Where the matte is partial, a photo pixel mixes the person with the old backdrop; composited
 * on a new background as is, that mix shows as a rim of the old backdrop's colour (a halo). Two passes of
 * alpha-weighted box blurs estimate the foreground and background colours near each pixel and keep the
 * share of the pixel that the matte gives the person. Where alpha is 255 the photo is kept exactly; where it
 * is 0 the nearby person colour is carried outwards, so resampling the layer never pulls backdrop in.
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
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = alpha[i] === 255 ? rgb[i * 3 + c] : Math.round(fg[c][i] * 255);
  }
  return out;
}

/** One pass: blurred foreground/background estimates and the foreground corrected towards the photo. */
function fuse(image: Float32Array[], fg: Float32Array[], a: Float32Array, W: number, H: number, r: number): Float32Array[] {
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
      f[i] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
    next.push(f);
  }
  return next;
}
