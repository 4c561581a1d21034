/**
 * Type and pixel size of a JPEG or PNG from its first bytes (no decoding): enough for the console's
 * quick checks (type, shorter side, 16:9). JPEG EXIF orientations 5–8 swap width and height.
 */
export interface ImageInfo {
  type: "image/jpeg" | "image/png";
  width: number;
  height: number;
  /** PNG only: colour type with an alpha channel, or a tRNS chunk (may be non-opaque). */
  mayHaveAlpha: boolean;
}

const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(b: Uint8Array): ImageInfo | null {
  if (b.length < 33 || !PNG_SIG.every((v, i) => b[i] === v) || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR")
    return null;
  const colourType = b[25]!;
  let trns = false;
  for (let i = 8; i + 8 <= b.length; ) {
    const len = be32(b, i);
    const type = String.fromCharCode(...b.subarray(i + 4, i + 8));
    if (type === "tRNS") trns = true;
    if (type === "IDAT" || type === "IEND") break;
    i += 12 + len;
  }
  return {
    type: "image/png",
    width: be32(b, 16),
    height: be32(b, 20),
    mayHaveAlpha: colourType === 4 || colourType === 6 || trns,
  };
}

function exifOrientation(b: Uint8Array, start: number, end: number): number {
  if (String.fromCharCode(...b.subarray(start, start + 4)) !== "Exif") return 1;
  const t = start + 6;
  const little = b[t] === 0x49;
  const u16 = (i: number) => (little ? b[i]! | (b[i + 1]! << 8) : be16(b, i));
  const u32 = (i: number) =>
    little ? (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)) + b[i + 3]! * 2 ** 24 : be32(b, i);
  const ifd = t + u32(t + 4);
  if (ifd + 2 > end) return 1;
  for (let n = u16(ifd), i = ifd + 2; n > 0 && i + 12 <= end; n--, i += 12) if (u16(i) === 0x0112) return u16(i + 8);
  return 1;
}

function jpeg(b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let orientation = 1;
  for (let i = 2; i + 9 < b.length; ) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const len = be16(b, i + 2);
    if (marker === 0xe1) orientation = exifOrientation(b, i + 4, Math.min(b.length, i + 2 + len));
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      const height = be16(b, i + 5);
      const width = be16(b, i + 7);
      const swap = orientation >= 5 && orientation <= 8;
      return { type: "image/jpeg", width: swap ? height : width, height: swap ? width : height, mayHaveAlpha: false };
    }
    i += 2 + len;
  }
  return null;
}

export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  const info = png(bytes) ?? jpeg(bytes);
  return info && info.width > 0 && info.height > 0 ? info : null;
}

/** 16:9 within 1 % (a 1920×1080 or 1280×720 image, or a crop a pixel off). */
export const isSixteenByNine = (w: number, h: number) => Math.abs(w / h / (16 / 9) - 1) <= 0.01;
