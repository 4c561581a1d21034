/**
 * The renderer's mouth interior: the shared per-pixel shading (face-rig mouth-shade.ts, which the live
 * client draws too) written straight into the yuv420p frame — luma per pixel with the photo's grain, chroma
 * per 2×2 block (shaded at its centre), each blended over the warped photo by the interior's coverage.
 */
import {
  grainNoise as noise,
  lumaOf,
  type Interior,
  measureOpening,
  type MouthStyle,
  paintRect,
  type Rect,
  shade,
  type YuvFrameLayout,
} from "@avatar-video/face-rig";
import { EMPTY_RECT } from "./warp";

/** Luma per pixel, with the photo's grain on the synthesised share. */
function writeLuma(frame: Uint8Array, L: YuvFrameLayout, c: Interior, r: Rect, col: Float64Array): void {
  const W = L.width;
  const grain = c.st.grain;
  for (let y = r.y0; y < r.y1; y++) {
    let o = y * W + r.x0;
    for (let x = r.x0; x < r.x1; x++, o++) {
      const a = shade(c, L, col, x + 0.5, y + 0.5);
      if (a <= 0) continue;
      const Yc = lumaOf(col[0], col[1], col[2]) + grain * col[3] * noise(x, y);
      const cur = frame[o];
      frame[o] = Math.max(0, Math.min(255, (cur + (Yc - cur) * a + 0.5) | 0));
    }
  }
}

/** Chroma per 2×2 block, shaded at the block's centre. */
function writeChroma(frame: Uint8Array, L: YuvFrameLayout, c: Interior, r: Rect, col: Float64Array): void {
  const cw = L.width >> 1;
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  for (let cy = r.y0 >> 1; cy < r.y1 >> 1; cy++) {
    let o = cy * cw + (r.x0 >> 1);
    for (let cx = r.x0 >> 1; cx < r.x1 >> 1; cx++, o++) {
      const a = shade(c, L, col, cx * 2 + 1, cy * 2 + 1);
      if (a <= 0) continue;
      const Uc = 128 + (-26 * col[0] - 86 * col[1] + 112 * col[2]) / 256;
      const Vc = 128 + (112 * col[0] - 102 * col[1] - 10 * col[2]) / 256;
      frame[uOff + o] = (frame[uOff + o] + (Uc - frame[uOff + o]) * a + 0.5) | 0;
      frame[vOff + o] = (frame[vOff + o] + (Vc - frame[vOff + o]) * a + 0.5) | 0;
    }
  }
}

/**
 * Draw the mouth interior into a yuv420p frame. `upper` and `lower` are the inner-lip points (corner to
 * corner, same corners) as flat [x, y] arrays in canvas pixels. `open` 0..1 drives the tongue and lower
 * teeth, `round` 0..1 hides the teeth behind pushed-out lips, `tuck` 0..1 (F/V) lets the upper teeth reach
 * down to the lower lip. Only pixels inside `clip` are touched.
 * Returns the luma rect written (even-aligned), empty when the lips are (nearly) closed.
 */
export function drawMouthInterior(
  frame: Uint8Array,
  L: YuvFrameLayout,
  upper: Float32Array,
  lower: Float32Array,
  open: number,
  st: MouthStyle,
  clip: Rect,
  round = 0,
  tuck = 0,
): Rect {
  const c = measureOpening(upper, lower, open, st, round, tuck);
  if (!c) return EMPTY_RECT;
  const r = paintRect(upper, lower, st.blur, clip);
  if (!r) return EMPTY_RECT;
  const col = new Float64Array(4);
  writeLuma(frame, L, c, r, col);
  writeChroma(frame, L, c, r, col);
  return r;
}
