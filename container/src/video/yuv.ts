/**
 * RGB → YUV 4:2:0 (BT.709, limited range; chroma = average of each 2×2 block), integer arithmetic
 * (coefficients × 256). The renderer converts the static canvas once and then works in YUV.
 */

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

// BT.709 limited range, ×256 (Y: 16..235, Cb/Cr: 16..240).
const YR = 47; // 0.2126 * 219/255 * 256 = 46.74
const YG = 157; // 0.7152 * 219/255 * 256 = 157.24
const YB = 16; // 0.0722 * 219/255 * 256 = 15.87
const UR = -26; // -0.1146 * 224/255 * 256 = -25.77
const UG = -86; // -0.3854 * 224/255 * 256 = -86.67 (rounded so the row sums to 0)
const UB = 112; // 0.5 * 224/255 * 256 = 112.44
const VR = 112;
const VG = -102; // -0.4542 * 224/255 * 256 = -102.14
const VB = -10; // -0.0458 * 224/255 * 256 = -10.30

/** Convert a whole RGB image (width×height×3 bytes, even dimensions) into a yuv420p frame. */
export function rgbToYuv420(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const L = yuvLayout(width, height);
  const out = new Uint8Array(L.frameSize);
  const W = width;
  const cw = W >> 1;
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < W; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < 4; k++) {
        const xx = x + (k & 1);
        const yy = y + (k >> 1);
        const p = (yy * W + xx) * 3;
        const R = rgb[p];
        const G = rgb[p + 1];
        const B = rgb[p + 2];
        out[yy * W + xx] = ((YR * R + YG * G + YB * B + 128) >> 8) + 16;
        r += R;
        g += G;
        b += B;
      }
      const co = (y >> 1) * cw + (x >> 1);
      out[uOff + co] = ((UR * r + UG * g + UB * b + 512) >> 10) + 128;
      out[vOff + co] = ((VR * r + VG * g + VB * b + 512) >> 10) + 128;
    }
  }
  return out;
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
