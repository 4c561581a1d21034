/** The stored form of a matte (packages/contract/src/matte-format.ts): an 8-bit greyscale PNG of the portrait's size. */
import sharp from "sharp";

export async function encodeMatte(alpha: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(alpha, { raw: { width, height, channels: 1 } })
    .toColourspace("b-w")
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** The matte's alpha, or undefined when the bytes are not a greyscale PNG of exactly width×height. */
export async function decodeMatte(png: Buffer, width: number, height: number): Promise<Uint8Array | undefined> {
  try {
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== 1) return undefined;
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch {
    return undefined;
  }
}
