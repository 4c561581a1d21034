/**
 * Source image rules of POST /avatars that concern the file itself: JPEG or PNG (by content, never by
 * name or Content-Type), at most 5 MiB, shorter side ≥ 340 px after EXIF orientation, PNG fully opaque.
 * Decodes once into oriented RGB that every later stage reuses.
 */
import sharp from "sharp";
import type { RgbImage } from "../face/analyze";
import { invalidImage } from "./failures";

export const MAX_SOURCE_BYTES = 5 * 1024 * 1024;
export const MIN_SHORT_SIDE = 340;
/** Decompression-bomb guard: 5 MiB of JPEG can declare 65535² pixels. 50 MP covers any phone photo. */
export const MAX_SOURCE_PIXELS = 50_000_000;

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
  if (bytes.length > MAX_SOURCE_BYTES) throw invalidImage(`${bytes.length} bytes > ${MAX_SOURCE_BYTES}`);
  const format = sniffFormat(bytes);
  if (!format) throw invalidImage(`not JPEG/PNG (starts ${bytes.subarray(0, 8).toString("hex")})`);
  // failOn "error": tolerate libjpeg warnings (extraneous bytes) that phones and editors commonly leave.
  const open = () => sharp(bytes, { failOn: "error", limitInputPixels: MAX_SOURCE_PIXELS });
  let meta: sharp.Metadata;
  try {
    meta = await open().metadata();
  } catch (err) {
    throw invalidImage(`unreadable ${format}: ${(err as Error).message}`);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw invalidImage(`decoder saw ${meta.format}`);
  if (Math.min(meta.width, meta.height) < MIN_SHORT_SIDE) {
    throw invalidImage(`${meta.width}x${meta.height}: shorter side < ${MIN_SHORT_SIDE}`);
  }
  // Keep alpha (PNG alpha channel, or tRNS which the decoder expands to alpha) to test it per pixel.
  const alpha = format === "png" && meta.hasAlpha;
  let raw: { data: Buffer; info: sharp.OutputInfo };
  try {
    let p = open().rotate().toColourspace("srgb");
    p = alpha ? p.ensureAlpha() : p.removeAlpha();
    raw = await p.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw invalidImage(`decode failed: ${(err as Error).message}`);
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
  if (channels !== 4) throw invalidImage(`unexpected ${channels} channels with alpha`);
  const rgb = Buffer.allocUnsafe(pixels * 3);
  for (let i = 0, o = 0, j = 0; i < pixels; i++, j += 4, o += 3) {
    if (rgba[j + 3] !== 255) throw invalidImage(`PNG not fully opaque (pixel ${i} alpha ${rgba[j + 3]})`);
    rgb[o] = rgba[j];
    rgb[o + 1] = rgba[j + 1];
    rgb[o + 2] = rgba[j + 2];
  }
  return rgb;
}
