/**
 * Glasses stay rigid under an expression, as in a video (container/src/paint/eyewear.ts, docs/performance.md):
 * the rims are found once on the portrait by the renderer's own detection (face-rig's eyewearMask on the
 * portrait's yuv420p luma), and two textures are made from the canvas's own texture pixels: the portrait with
 * the rims filled in from the skin around them (what the moved face is drawn from while an expression shows)
 * and the rims alone (drawn over it where the head without the expression carries them).
 */
import { eyewearMask, type FaceModel, fillUnder, relaxFill, yuv420FromPixels } from "@avatar-video/face-rig";

export interface EyewearImages {
  /** The texture's pixels with the rims filled in (RGBA, as the texture: alpha kept). */
  clean: ImageData;
  /**
   * The rims: alpha = their weight, colour such that drawing it "over" the filled-in skin gives the portrait
   * back (the renderer's putBack: still + (1 − a)(frame − clean)); not premultiplied.
   */
  rims: ImageData;
}

/** The rims of `portrait` (RGBA) and the texture `tex` (the portrait, or its cut-out) without them; undefined if none. */
export function eyewearImages(m: FaceModel, portrait: ImageData, tex: ImageData): EyewearImages | undefined {
  const { width: W, height: H } = portrait;
  const mask = eyewearMask(m, yuv420FromPixels({ data: portrait.data, width: W, height: H, channels: 4 }), W, H);
  if (!mask) return undefined;
  const { alpha, box, thin } = mask;
  const bw = box.x1 - box.x0;
  const bh = box.y1 - box.y0;
  const clean = new ImageData(Uint8ClampedArray.from(tex.data), W, H);
  const rims = new ImageData(W, H);
  const plane = new Uint8Array(bw * bh);
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < bh; y++)
      for (let x = 0; x < bw; x++) plane[y * bw + x] = tex.data[((box.y0 + y) * W + box.x0 + x) * 4 + c];
    const filled = fillUnder(plane, { off: 0, pw: bw, bx: 0, by: 0, bw, bh, alpha });
    relaxFill(filled, alpha, bw, bh, Math.ceil(2 * thin));
    for (let y = 0; y < bh; y++)
      for (let x = 0; x < bw; x++) {
        const i = y * bw + x;
        const o = ((box.y0 + y) * W + box.x0 + x) * 4;
        const a = alpha[i];
        clean.data[o + c] = filled[i];
        // a·X + (1 − a)·clean = still  →  X = (still − (1 − a)·clean) / a (clamped where the edge is darker).
        rims.data[o + c] = a > 0 ? (plane[i] - (1 - a) * filled[i]) / a : plane[i];
        if (c === 0) rims.data[o + 3] = Math.round(a * 255);
      }
  }
  return { clean, rims };
}
