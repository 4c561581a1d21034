/**
 * RGB → YUV 4:2:0 (BT.709, limited range) for a rectangle of an RGB image, written into a planar
 * yuv420p frame buffer. Integer arithmetic (coefficients × 256).
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

/**
 * Convert rect (x0,y0)-(x1,y1) of packed RGBA pixels (0xAABBGGRR, width×height) into `out` (yuv420p).
 * The rect is expanded to even coordinates so chroma samples are complete.
 */
export function rgbaToYuv420Rect(
  px: Uint32Array,
  out: Uint8Array,
  L: Yuv420Layout,
  rect: { x0: number; y0: number; x1: number; y1: number },
): void {
  const W = L.width;
  const cw = W >> 1;
  const x0 = rect.x0 & ~1;
  const y0 = rect.y0 & ~1;
  const x1 = Math.min(W, (rect.x1 + 1) & ~1);
  const y1 = Math.min(L.height, (rect.y1 + 1) & ~1);
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  for (let y = y0; y < y1; y += 2) {
    let p0 = y * W + x0;
    let p1 = p0 + W;
    let co = (y >> 1) * cw + (x0 >> 1);
    const end = y * W + x1;
    for (; p0 < end; p0 += 2, p1 += 2, co++) {
      const a = px[p0];
      const b = px[p0 + 1];
      const c = px[p1];
      const d = px[p1 + 1];
      const ra = a & 255, ga = (a >> 8) & 255, ba = (a >> 16) & 255;
      const rb = b & 255, gb = (b >> 8) & 255, bb = (b >> 16) & 255;
      const rc = c & 255, gc = (c >> 8) & 255, bc = (c >> 16) & 255;
      const rd = d & 255, gd = (d >> 8) & 255, bd = (d >> 16) & 255;
      out[p0] = ((YR * ra + YG * ga + YB * ba + 128) >> 8) + 16;
      out[p0 + 1] = ((YR * rb + YG * gb + YB * bb + 128) >> 8) + 16;
      out[p1] = ((YR * rc + YG * gc + YB * bc + 128) >> 8) + 16;
      out[p1 + 1] = ((YR * rd + YG * gd + YB * bd + 128) >> 8) + 16;
      const r = ra + rb + rc + rd;
      const g = ga + gb + gc + gd;
      const bl = ba + bb + bc + bd;
      out[uOff + co] = ((UR * r + UG * g + UB * bl + 512) >> 10) + 128;
      out[vOff + co] = ((VR * r + VG * g + VB * bl + 512) >> 10) + 128;
    }
  }
}
