/**
 * The person's own colours under a matte (Forte & Pitié, "Approximate Fast Foreground Colour Estimation",
 * ICIP 2021). Where the matte is partial, a photo pixel mixes the person with the old backdrop; composited
 * on a new background as is, that mix shows as a rim of the old backdrop's colour (a halo). Two passes of
 * alpha-weighted box blurs estimate the foreground and background colours near each pixel and keep the
 * share of the pixel that the matte gives the person. Where alpha is 0 the nearby person colour is carried
 * outwards, so resampling the layer never pulls backdrop in.
 *
 * Along the outline that estimate still leaves rims: alpha is off by a pixel or two where the photo's edge
 * is blurred, a JPEG keeps colour at half resolution, and light bounces off a wall onto hair. There each
 * pixel is unmixed from its own colour instead (unmixEdge). Everywhere else where alpha is 255 the photo is
 * kept exactly.
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
  unmixEdge(fg, image, alpha, W, H);
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(Math.min(1, Math.max(0, fg[c][i])) * 255);
  return out;
}

/** The band along the outline whose colours are unmixed, in px at 1024 (scaled with the image). */
const EDGE = 6;
/** Person and backdrop colours closer than this (squared distance, colours 0..1) are not told apart. */
const DISTINCT = 0.02;

/**
 * Within EDGE px of the outline (the mixed pixels and the opaque ones next to them) each pixel is unmixed
 * along the line from the person's colour P (opaque pixels at least EDGE px in, within 4×EDGE) to the bare
 * backdrop's colour B next to it (alpha 0 within 2×EDGE, else 4×EDGE): its person share t is where it lies
 * on that line, and its brightness with the backdrop's share taken out, I + (1 − t)(P − B), is kept at P's
 * hue. Alpha is not trusted here: where the photo's edge is blurred (a JPEG keeps colour at half
 * resolution, a bright wall spills light onto hair) it is off by a pixel or two, and the pixel's own colour
 * says how much backdrop it holds. The hue is P's because what is left of the backdrop after unmixing is
 * the estimate's error, which showed as orange or teal rims; hair keeps its strands in brightness. Where P
 * and B are alike, or either is seen only in a few pixels, the pixel fades back to the estimate above.
 */
function unmixEdge(fg: Float32Array[], image: Float32Array[], alpha: Uint8Array, W: number, H: number): void {
  const n = W * H;
  const e = Math.max(1, Math.round((Math.max(W, H) * EDGE) / 1024));
  const opaque = new Float32Array(n);
  const bare = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    opaque[i] = alpha[i] === 255 ? 1 : 0;
    bare[i] = alpha[i] === 0 ? 1 : 0;
  }
  const near = boxMean(opaque, W, H, e);
  const inner = new Float32Array(n);
  for (let i = 0; i < n; i++) inner[i] = near[i] > 0.999 ? 1 : 0;
  const share = boxMean(inner, W, H, 1);
  const tmp = new Float32Array(n);
  // Per plane the masked sum's mean; divided by the mask's own mean it is the mean colour under the mask.
  const masked = (mask: Float32Array, r: number) =>
    image.map((plane) => {
      for (let i = 0; i < n; i++) tmp[i] = plane[i] * mask[i];
      return boxMean(tmp, W, H, r);
    });
  const personCover = boxMean(inner, W, H, 4 * e);
  const person = masked(inner, 4 * e);
  const nearCover = boxMean(bare, W, H, 2 * e);
  const backNear = masked(bare, 2 * e);
  const farCover = boxMean(bare, W, H, 4 * e);
  const backFar = masked(bare, 4 * e);
  const p = [0, 0, 0];
  const d = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const band = 1 - share[i]; // 0 inside the interior, rising over 1 px outside it
    if (alpha[i] === 0 || band === 0 || personCover[i] < 1e-3 || farCover[i] < 1e-3) continue;
    const local = Math.min(1, nearCover[i] / 0.05);
    let dd = 0;
    let dot = 0;
    for (let c = 0; c < 3; c++) {
      p[c] = person[c][i] / personCover[i];
      const b = local * (backNear[c][i] / (nearCover[i] + 1e-9)) + (1 - local) * (backFar[c][i] / farCover[i]);
      d[c] = p[c] - b;
      dd += d[c] * d[c];
      dot += (image[c][i] - b) * d[c];
    }
    if (dd < 1e-6) continue;
    const t = Math.min(1, Math.max(0, dot / dd));
    const k = band * Math.min(1, dd / DISTINCT, personCover[i] / 0.05, farCover[i] / 0.02);
    const shift =
      luma(image[0][i], image[1][i], image[2][i]) + (1 - t) * luma(d[0], d[1], d[2]) - luma(p[0], p[1], p[2]);
    for (let c = 0; c < 3; c++) fg[c][i] += k * (p[c] + shift - fg[c][i]);
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
