/**
 * The person as a layer of the canvas: the portrait's own colours under its matte (the old backdrop taken
 * out of the edges, face-rig's matteForeground) and the matte, both placed exactly as composeCanvas places
 * the portrait (same size, offset, resampling kernel). Where the portrait ends inside the canvas (contain,
 * the whole-head framing) the person fades out over W/24 px: hair or shoulders cut by the photo's edge
 * thin out into the new background instead of ending in a straight line. Alpha is 0 beyond.
 */
import sharp from "sharp";
import { matteForeground, type Placement } from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";
import { canvasPlacement, resampleKernel, sideRamp, type CanvasSettings } from "./compose";

/**
 * Share of the canvas over which the person fades where the photo ends. The photo against its own blurred
 * sides needs only W/80 (compose.ts); against an unrelated background W/80 still reads as a cut through
 * the hair, W/14 as see-through hair.
 */
const PHOTO_EDGE_FADE = 1 / 24;

export interface PersonLayer {
  /** The person's colours on the canvas, RGB (carried past its outline, so resampling never pulls in backdrop). */
  rgb: Uint8Array;
  /** The person's opacity on the canvas, one byte per pixel. */
  alpha: Uint8Array;
  placement: Placement;
}

/** `matte`: the Avatar's alpha at the portrait's size. */
export async function composePerson(
  portraitPng: Buffer,
  matte: Uint8Array,
  rig: AvatarRig,
  s: CanvasSettings,
): Promise<PersonLayer> {
  const { width: W, height: H } = s;
  const { place, placement } = await canvasPlacement(portraitPng, rig, s);
  const { data, info } = await sharp(portraitPng).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const fg = matteForeground(data, matte, info.width, info.height);
  const c = place.clip;
  const kernel = resampleKernel(Math.max(place.scaleX, place.scaleY));
  const fit = async (raw: Uint8Array, channels: 1 | 3): Promise<Buffer> => {
    const img = sharp(raw, { raw: { width: info.width, height: info.height, channels } })
      .resize(place.width, place.height, { fit: "fill", kernel })
      .extract({ left: c.x0 - place.offsetX, top: c.y0 - place.offsetY, width: c.x1 - c.x0, height: c.y1 - c.y0 });
    // libvips hands a one-band image back as three: keep the one.
    return (channels === 1 ? img.extractChannel(0) : img).raw().toBuffer();
  };
  const [rgbPart, alphaPart] = await Promise.all([fit(fg, 3), fit(matte, 1)]);
  const rgb = new Uint8Array(W * H * 3);
  const alpha = new Uint8Array(W * H);
  const w = c.x1 - c.x0;
  const cols = sideRamp(c, W, PHOTO_EDGE_FADE);
  const rows = sideRamp({ x0: c.y0, x1: c.y1 }, H, PHOTO_EDGE_FADE);
  for (let y = c.y0; y < c.y1; y++) {
    const row = (y - c.y0) * w;
    rgb.set(rgbPart.subarray(row * 3, (row + w) * 3), (y * W + c.x0) * 3);
    const fade = rows[y - c.y0];
    for (let x = 0; x < w; x++) {
      const ramp = cols[x] * fade;
      alpha[y * W + c.x0 + x] = ramp === 65025 ? alphaPart[row + x] : Math.round((alphaPart[row + x] * ramp) / 65025);
    }
  }
  return { rgb, alpha, placement };
}
