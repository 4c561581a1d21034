/**
 * The mouth interior of the live canvas, painted by the renderer's own code: face-rig's measureOpening /
 * paintRect / shade (the renderer writes the same shading into its yuv420p frames, container/src/paint/
 * mouth-interior.ts) with the photo's mouth style measured on the portrait as the renderer measures it on
 * its canvas (mouthStyle on the portrait's yuv420p form). Each frame gives an RGBA patch — colour with the
 * photo's grain, alpha = the interior's coverage — that avatar-canvas.ts blends over the warped face.
 */
import {
  type FaceModel,
  type FacePose,
  grainNoise,
  innerLips,
  measureOpening,
  type MouthColors,
  mouthStyle,
  type MouthStyle,
  paintRect,
  type Rect,
  shade,
  yuv420FromPixels,
  yuvFrameLayout,
  type YuvFrameLayout,
  type Pixels,
} from "@avatar-video/face-rig";

/** Luma step → the same step on R, G and B (BT.709 limited range: Y = 16 + 219/255 × the RGB luma). */
const LUMA_TO_RGB = 255 / 219;

export interface MouthPatch {
  rect: Rect;
  /** RGBA, rect-sized, not premultiplied (clamped, rounded on store). */
  rgba: Uint8ClampedArray;
}

export class MouthOverlay {
  private readonly style: MouthStyle;
  private readonly L: YuvFrameLayout;
  private readonly upper: Float32Array;
  private readonly lower: Float32Array;
  private readonly col = new Float64Array(4);
  private buf = new Uint8ClampedArray(0);

  constructor(
    private readonly model: FaceModel,
    portrait: Pixels,
    colors: MouthColors,
  ) {
    const { width: W, height: H } = portrait;
    this.L = yuvFrameLayout(W, H);
    this.style = mouthStyle(colors, model, yuv420FromPixels(portrait), W, H);
    this.upper = new Float32Array(model.mouth.upperInner.length * 2);
    this.lower = new Float32Array(model.mouth.lowerInner.length * 2);
  }

  /** The interior for vertex positions `xy` and `pose` (as the renderer's painter passes them), or undefined. */
  paint(xy: Float32Array, pose: FacePose): MouthPatch | undefined {
    innerLips(this.model.mouth, xy, this.upper, this.lower);
    const closed = 1 - pose.press;
    const c = measureOpening(this.upper, this.lower, pose.open * closed, this.style, pose.round, pose.tuck * closed);
    if (!c) return undefined;
    const L = this.L;
    const r = paintRect(this.upper, this.lower, this.style.blur, { x0: 0, y0: 0, x1: L.width, y1: L.height });
    if (!r) return undefined;
    const w = r.x1 - r.x0;
    const size = w * (r.y1 - r.y0) * 4;
    if (this.buf.length < size) this.buf = new Uint8ClampedArray(size);
    const rgba = this.buf.subarray(0, size);
    const col = this.col;
    const grain = this.style.grain * LUMA_TO_RGB;
    let o = 0;
    for (let y = r.y0; y < r.y1; y++) {
      for (let x = r.x0; x < r.x1; x++, o += 4) {
        const a = shade(c, L, col, x + 0.5, y + 0.5);
        if (a <= 0) {
          rgba[o + 3] = 0;
          continue;
        }
        // The photo's grain on the synthesised share, on luma only (as the renderer adds it).
        const g = grain * col[3]! * grainNoise(x, y);
        rgba[o] = col[0]! + g;
        rgba[o + 1] = col[1]! + g;
        rgba[o + 2] = col[2]! + g;
        rgba[o + 3] = a * 255;
      }
    }
    return { rect: r, rgba };
  }
}
