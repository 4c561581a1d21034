/**
 * Cuts the portrait square out of the source and scales it to the output side. Where the square reaches
 * past the photo, the border pixels are stretched outwards and blurred (no black bars, and unlike a
 * mirror fill it cannot duplicate half a face next to the real one).
 */
import sharp from "sharp";
import type { RgbImage } from "../face/analyze";
import type { PortraitFrame } from "./frame";

const raw3 = (width: number, height: number) => ({ raw: { width, height, channels: 3 as const } });

export async function cropPortrait(src: RgbImage, frame: PortraitFrame): Promise<RgbImage> {
  const { left, top, size, output } = frame;
  const k = output / size;
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(src.width, left + size);
  const y1 = Math.min(src.height, top + size);
  if (x1 - x0 < 1 || y1 - y0 < 1) throw new Error("portrait frame lies outside the image");
  const region = sharp(src.data, raw3(src.width, src.height)).extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 });

  if (x0 === left && y0 === top && x1 === left + size && y1 === top + size) {
    const { data } = await region.resize(output, output).raw().toBuffer({ resolveWithObject: true });
    return { data, width: output, height: output };
  }

  // Scale the part inside the photo, then extend it to the full square at output scale.
  const padL = Math.round((x0 - left) * k);
  const padT = Math.round((y0 - top) * k);
  const iw = Math.min(output - padL, Math.max(1, Math.round((x1 - x0) * k)));
  const ih = Math.min(output - padT, Math.max(1, Math.round((y1 - y0) * k)));
  const inner = await region.resize(iw, ih, { fit: "fill" }).raw().toBuffer();
  const extended = await sharp(inner, raw3(iw, ih))
    .extend({ left: padL, top: padT, right: output - padL - iw, bottom: output - padT - ih, extendWith: "copy" })
    .blur(Math.max(2, output / 80))
    .raw()
    .toBuffer();
  const data = await sharp(extended, raw3(output, output))
    .composite([{ input: inner, ...raw3(iw, ih), left: padL, top: padT }])
    .removeAlpha() // composite always yields RGBA
    .raw()
    .toBuffer();
  return { data, width: output, height: output };
}
