/**
 * Source image rules of POST /avatars that concern the file itself: JPEG or PNG (by content, never by
 * name or Content-Type), at most 5 MiB, shorter side ≥ 340 px after EXIF orientation, PNG fully opaque.
 * Decodes once into oriented RGB that every later stage reuses.
 */
import sharp from "sharp";
import type { RgbImage } from "../analysis/public";
import {
  MAX_SOURCE_BYTES,
  MAX_SOURCE_PIXELS,
  MIN_SHORT_SIDE,
  fileTooLarge,
  imageTooManyPixels,
  imageTooSmall,
  imageTransparent,
  imageUnreadable,
  unsupportedFormat,
} from "../rules/public";

export type SourceFormat = "jpeg" | "png";

export function sniffFormat(bytes: Buffer): SourceFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "png";
  return undefined;
}

export interface DecodedSource {
  image: RgbImage;
  format: SourceFormat;
}

export async function decodeSource(bytes: Buffer): Promise<DecodedSource> {
  if (bytes.length > MAX_SOURCE_BYTES) throw fileTooLarge(bytes.length);
  const format = sniffFormat(bytes);
  if (!format) throw unsupportedFormat(describeFormat(bytes));
  // failOn "error": tolerate libjpeg warnings (extraneous bytes) that phones and editors commonly leave.
  // The pixel cap is checked on the header below (a clear refusal); libvips' own limit stays as a backstop.
  const open = () => sharp(bytes, { failOn: "error", limitInputPixels: MAX_SOURCE_PIXELS });
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata();
  } catch (err) {
    throw imageUnreadable(format, `unreadable ${format}: ${(err as Error).message}`);
  }
  if (meta.format !== format || !meta.width || !meta.height)
    throw imageUnreadable(format, `decoder saw ${meta.format}`);
  if (meta.width * meta.height > MAX_SOURCE_PIXELS) throw imageTooManyPixels(meta.width, meta.height);
  // A rotation (EXIF orientation) never changes the shorter side: the header's sizes decide.
  if (Math.min(meta.width, meta.height) < MIN_SHORT_SIDE)
    throw imageTooSmall(oriented(meta).width, oriented(meta).height);
  // Keep alpha (PNG alpha channel, or tRNS which the decoder expands to alpha) to test it per pixel.
  const alpha = format === "png" && meta.hasAlpha;
  let raw: { data: Buffer; info: sharp.OutputInfo };
  try {
    let p = open().rotate().toColourspace("srgb");
    p = alpha ? p.ensureAlpha() : p.removeAlpha();
    raw = await p.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw imageUnreadable(format, `decode failed: ${(err as Error).message}`);
  }
  const { width, height, channels } = raw.info;
  if (!alpha) return { image: { data: raw.data, width, height }, format };
  return { image: { data: dropOpaqueAlpha(raw.data, width * height, channels), width, height }, format };
}

/**
 * "Fully opaque" is decided per pixel: any alpha below 255 rejects; an alpha channel (or tRNS chunk)
 * that leaves every pixel at 255 is opaque. Returns the RGB pixels.
 */
function dropOpaqueAlpha(rgba: Buffer, pixels: number, channels: number): Buffer {
  if (channels !== 4) throw imageUnreadable("png", `unexpected ${channels} channels with alpha`);
  const rgb = Buffer.allocUnsafe(pixels * 3);
  let translucent = 0;
  for (let i = 0, o = 0, j = 0; i < pixels; i++, j += 4, o += 3) {
    if (rgba[j + 3] !== 255) translucent++;
    rgb[o] = rgba[j];
    rgb[o + 1] = rgba[j + 1];
    rgb[o + 2] = rgba[j + 2];
  }
  if (translucent > 0) throw imageTransparent(translucent);
  return rgb;
}

/** Width × height as displayed (EXIF orientations 5–8 swap the sides). */
function oriented(meta: sharp.Metadata): { width: number; height: number } {
  const swap = (meta.orientation ?? 1) >= 5;
  return swap ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
}

/** A name for the refusal sentence, from the magic bytes of common image and non-image files. */
function describeFormat(bytes: Buffer): string {
  const head = bytes.subarray(0, 16);
  const ascii = head.toString("latin1");
  if (ascii.startsWith("GIF8")) return "a GIF";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "a WebP image";
  if (ascii.slice(4, 8) === "ftyp")
    return /^(heic|heix|hevc|mif1|msf1)/.test(ascii.slice(8, 12))
      ? "a HEIC image"
      : "an ISO media file (HEIF/AVIF/MP4)";
  if (ascii.startsWith("II*\0") || ascii.startsWith("MM\0*")) return "a TIFF";
  if (ascii.startsWith("BM")) return "a BMP";
  if (ascii.startsWith("%PDF")) return "a PDF";
  if (/^\s*</.test(ascii)) return "an HTML or XML document";
  return "not an image we recognise";
}
