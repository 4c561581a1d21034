/**
 * Cuts the portrait square out of the source and scales it to the output side. Where the square reaches
 * past the photo, the border pixels are stretched outwards and blurred (no black bars, and unlike a
 * mirror fill it cannot put a second, mirrored half face next to the real one).
 */
import sharp from "sharp";
import type { RgbImage } from "../analysis/public";
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
  const region = sharp(src.data, raw3(src.width, src.height)).extract({
    left: x0,
    top: y0,
    width: x1 - x0,
    height: y1 - y0,
  });

  if (x0 === left && y0 === top && x1 === left + size && y1 === top + size) {
    const { data } = await region.resize(output, output).raw().toBuffer({ resolveWithObject: true });
    return { data, width: output, height: output };
  }

  // Scale the part inside the photo, stretch its border pixels out to the full square and blur them
  // strongly (streaks become soft colour), then lay the photo back on top with feathered edges.
  const padL = Math.round((x0 - left) * k);
  const padT = Math.round((y0 - top) * k);
  const iw = Math.min(output - padL, Math.max(1, Math.round((x1 - x0) * k)));
  const ih = Math.min(output - padT, Math.max(1, Math.round((y1 - y0) * k)));
  const pads = { left: padL, top: padT, right: output - padL - iw, bottom: output - padT - ih };
  const inner = await region.resize(iw, ih, { fit: "fill" }).raw().toBuffer();
  const base = await sharp(inner, raw3(iw, ih))
    .extend({ ...pads, extendWith: "copy" })
    .blur(Math.max(4, output / 30))
    .raw()
    .toBuffer();
  const data = await sharp(base, raw3(output, output))
    .composite([
      {
        input: feathered(inner, iw, ih, pads, Math.max(4, Math.round(output / 50))),
        raw: { width: iw, height: ih, channels: 4 },
        left: padL,
        top: padT,
      },
    ])
    .removeAlpha() // composite always yields RGBA
    .raw()
    .toBuffer();
  return { data, width: output, height: output };
}

/** RGBA copy of `rgb` whose alpha ramps from 0 to 255 over `ramp` px along the sides that meet padding. */
function feathered(
  rgb: Buffer,
  w: number,
  h: number,
  pads: Record<"left" | "top" | "right" | "bottom", number>,
  ramp: number,
): Buffer {
  const out = Buffer.allocUnsafe(w * h * 4);
  const far = 1e9;
  for (let y = 0; y < h; y++) {
    const dy = Math.min(pads.top > 0 ? y + 0.5 : far, pads.bottom > 0 ? h - y - 0.5 : far);
    for (let x = 0; x < w; x++) {
      const d = Math.min(dy, pads.left > 0 ? x + 0.5 : far, pads.right > 0 ? w - x - 0.5 : far);
      const i = y * w + x;
      out[i * 4] = rgb[i * 3];
      out[i * 4 + 1] = rgb[i * 3 + 1];
      out[i * 4 + 2] = rgb[i * 3 + 2];
      out[i * 4 + 3] = d >= ramp ? 255 : Math.round((255 * d) / ramp);
    }
  }
  return out;
}
