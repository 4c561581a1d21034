/**
 * RGB → YUV 4:2:0 (BT.709, limited range; chroma = average of each 2×2 block; the arithmetic is face-rig's
 * yuv420FromPixels). The renderer converts the static canvas once and then works in YUV.
 */
import { yuv420FromPixels } from "@avatar-video/face-rig";

export interface Yuv420Layout {
  width: number;
  height: number;
  ySize: number;
  cSize: number;
  frameSize: number;
}

export function yuvLayout(width: number, height: number): Yuv420Layout {
  const ySize = width * height;
  const cSize = (width >> 1) * (height >> 1);
  return { width, height, ySize, cSize, frameSize: ySize + 2 * cSize };
}

/** Convert a whole RGB image (width×height×3 bytes, even dimensions) into a yuv420p frame. */
export function rgbToYuv420(rgb: Uint8Array, width: number, height: number): Uint8Array {
  // The live client converts its portrait with the same function, so both paint the mouth from the same values.
  return yuv420FromPixels({ data: rgb, width, height, channels: 3 });
}

/** A yuv420p frame back to RGB (BT.601 limited range, chroma by nearest sample), for looking at frames. */
export function yuv420ToRgb(frame: Uint8Array, width: number, height: number): Uint8Array {
  const L = yuvLayout(width, height);
  const out = new Uint8Array(width * height * 3);
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = (y >> 1) * (width >> 1) + (x >> 1);
      const Y = 1.164 * (frame[y * width + x] - 16);
      const U = frame[L.ySize + c] - 128;
      const V = frame[L.ySize + L.cSize + c] - 128;
      const o = (y * width + x) * 3;
      out[o] = clamp(Y + 1.793 * V);
      out[o + 1] = clamp(Y - 0.213 * U - 0.533 * V);
      out[o + 2] = clamp(Y + 2.112 * U);
    }
  }
  return out;
}
