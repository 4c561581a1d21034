/**
 * Static composition of the canvas: background (colour or image with cover/contain/stretch) and the
 * portrait (crop = cover the canvas, contain = fit inside). Produces the raw RGB canvas the animator warps
 * from, and the portrait placement used to map rig coordinates to canvas pixels.
 */
import sharp from "sharp";
import { JobFailure } from "../rules/public";
import { BACKGROUND_INPUT, backgroundHeader } from "../media/public";
import type { Placement } from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";

export interface CanvasSettings {
  width: number;
  height: number;
  fit: "crop" | "contain";
  backgroundColor: string;
  backgroundFit: "cover" | "contain" | "stretch";
}

export function parseHexColor(hex: string): { r: number; g: number; b: number } {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return { r: 0, g: 0, b: 0 };
  const v = parseInt(m[1], 16);
  return { r: (v >> 16) & 255, g: (v >> 8) & 255, b: v & 255 };
}

/** Whole-head framing: the head (hair estimated above the mesh) spans at most this share of the height… */
const HEAD_SHARE = 0.78;
/** …with this much headroom above it (share of the canvas height). */
const HEADROOM = 0.06;
/** Hair and skull above FaceMesh's top point, as a share of the mesh height. */
const HAIR_ABOVE = 0.5;

/**
 * Where the portrait goes. crop: scale to cover the canvas — unless covering would cut the head (a tall
 * portrait on a wide canvas): then the scale is lowered until the whole head fits with headroom, the
 * portrait sits centred on the face, and compose fills the sides with a blurred copy of itself.
 * Vertically the face centre sits 45 % down, moved so the head keeps its headroom, clamped to the portrait.
 * contain: scale to fit inside, centred.
 */
export function placePortrait(
  rig: AvatarRig,
  pw: number,
  ph: number,
  s: CanvasSettings,
): Placement & { width: number; height: number } {
  const W = s.width;
  const H = s.height;
  if (s.fit === "contain") {
    const k = Math.min(W / pw, H / ph);
    const w = Math.max(1, Math.min(W, Math.round(pw * k)));
    const h = Math.max(1, Math.min(H, Math.round(ph * k)));
    const ox = Math.floor((W - w) / 2);
    const oy = Math.floor((H - h) / 2);
    return {
      scaleX: w / pw,
      scaleY: h / ph,
      offsetX: ox,
      offsetY: oy,
      width: w,
      height: h,
      clip: { x0: ox, y0: oy, x1: ox + w, y1: oy + h },
    };
  }
  const fb = rig.faceBox;
  const sx = pw / rig.portrait.width;
  const sy = ph / rig.portrait.height;
  const headTop = Math.max(0, (fb.y - HAIR_ABOVE * fb.height) * sy);
  const chin = (fb.y + fb.height) * sy;
  const cover = Math.max(W / pw, H / ph);
  const k = Math.min(cover, (HEAD_SHARE * H) / Math.max(1, chin - headTop));
  const w = k === cover ? Math.max(W, Math.round(pw * k)) : Math.round(pw * k);
  const h = k === cover ? Math.max(H, Math.round(ph * k)) : Math.round(ph * k);
  const fcx = (fb.x + fb.width / 2) * sx * (w / pw);
  const fcy = (fb.y + fb.height / 2) * sy * (h / ph);
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  // Horizontally: face centred, the canvas covered where the portrait is wide enough.
  const ox = Math.round(w >= W ? clamp(W / 2 - fcx, W - w, 0) : clamp(W / 2 - fcx, 0, W - w));
  // Vertically: face centre at 45 %, but never less headroom than HEADROOM above the head.
  const oy0 = Math.max(H * 0.45 - fcy, HEADROOM * H - headTop * (h / ph));
  const oy = Math.round(h >= H ? clamp(oy0, H - h, 0) : clamp(oy0, 0, H - h));
  const clip = { x0: Math.max(0, ox), y0: Math.max(0, oy), x1: Math.min(W, ox + w), y1: Math.min(H, oy + h) };
  return { scaleX: w / pw, scaleY: h / ph, offsetX: ox, offsetY: oy, width: w, height: h, clip };
}

/**
 * Resampling of the portrait: Lanczos-3 keeps the most detail and its ringing stays invisible up to about
 * 2.5× (checked on 2× crops of hair and lip edges); beyond that its halos show around dark hair, so the
 * ringing-free Mitchell–Netravali cubic is used (no blockiness either way — both are smooth kernels).
 */
export const resampleKernel = (scale: number): "lanczos3" | "mitchell" => (scale > 2.5 ? "mitchell" : "lanczos3");

/** The portrait's size on the canvas and where it goes, and the placement of rig coordinates (the stored portrait's pixels). */
export async function canvasPlacement(
  portraitPng: Buffer,
  rig: AvatarRig,
  s: CanvasSettings,
): Promise<{ place: ReturnType<typeof placePortrait>; placement: Placement }> {
  let pmeta: sharp.Metadata;
  try {
    pmeta = await sharp(portraitPng).metadata();
  } catch (e) {
    throw new JobFailure("render_failed", "The avatar portrait could not be read.", {
      retryable: false,
      detail: String(e),
    });
  }
  const pw = pmeta.width ?? rig.portrait.width;
  const ph = pmeta.height ?? rig.portrait.height;
  const place = placePortrait(rig, pw, ph, s);
  // Rig coordinates are in the stored portrait's pixels; if the image differs in size, rescale.
  const rx = pw / rig.portrait.width;
  const ry = ph / rig.portrait.height;
  const placement: Placement = {
    scaleX: place.scaleX * rx,
    scaleY: place.scaleY * ry,
    offsetX: place.offsetX,
    offsetY: place.offsetY,
    clip: place.clip,
  };
  return { place, placement };
}

/** The background image on the canvas (EXIF-rotated, alpha flattened on the colour, fitted per backgroundFit), raw RGB. */
export async function decodeBackground(background: Buffer, s: CanvasSettings): Promise<Buffer> {
  const bg = parseHexColor(s.backgroundColor);
  const fit = s.backgroundFit === "stretch" ? "fill" : s.backgroundFit;
  await backgroundHeader(background); // media_too_large before any pixel is decoded
  try {
    return await sharp(background, { failOn: "none", ...BACKGROUND_INPUT })
      .rotate()
      .flatten({ background: bg })
      .resize(s.width, s.height, { fit, background: { ...bg, alpha: 1 }, position: "centre" })
      .removeAlpha()
      .raw()
      .toBuffer();
  } catch (e) {
    throw new JobFailure("unsupported_media_type", "The background image could not be decoded.", { detail: String(e) });
  }
}

/** Build the static canvas (RGB, width×height×3). */
export async function composeCanvas(
  portraitPng: Buffer,
  rig: AvatarRig,
  background: Buffer | undefined,
  s: CanvasSettings,
): Promise<{ rgb: Uint8Array; placement: Placement }> {
  const W = s.width;
  const H = s.height;
  const bg = parseHexColor(s.backgroundColor);
  const { place, placement } = await canvasPlacement(portraitPng, rig, s);

  // Background layer.
  let base: sharp.Sharp;
  if (background && background.length > 0) {
    base = sharp(await decodeBackground(background, s), { raw: { width: W, height: H, channels: 3 } });
  } else {
    base = sharp({ create: { width: W, height: H, channels: 3, background: bg } });
  }

  const kernel = resampleKernel(Math.max(place.scaleX, place.scaleY));
  const portraitScaled = sharp(portraitPng)
    .flatten({ background: bg })
    .resize(place.width, place.height, { fit: "fill", kernel });
  let layer: Buffer;
  let left = place.offsetX;
  let top = place.offsetY;
  const covers = place.width >= W && place.height >= H;
  if (s.fit === "crop" && covers) {
    layer = await portraitScaled
      .extract({ left: -place.offsetX, top: -place.offsetY, width: W, height: H })
      .removeAlpha()
      .png({ compressionLevel: 0 })
      .toBuffer();
    left = 0;
    top = 0;
  } else if (s.fit === "crop") {
    // Whole-head framing: the sides show the same photo, blurred and a little darker, and the portrait's
    // edges fade into it (no visible seam).
    base = sharp(
      await sharp(portraitPng)
        .flatten({ background: bg })
        .resize(W, H, { fit: "cover" })
        .blur(Math.max(2, W / 60))
        .modulate({ brightness: 0.85 })
        .removeAlpha()
        .raw()
        .toBuffer(),
      {
        raw: { width: W, height: H, channels: 3 },
      },
    );
    const c = place.clip;
    const cut = await portraitScaled
      .extract({ left: c.x0 - place.offsetX, top: c.y0 - place.offsetY, width: c.x1 - c.x0, height: c.y1 - c.y0 })
      .removeAlpha()
      .raw()
      .toBuffer();
    layer = await sharp(featherSides(cut, c.x1 - c.x0, c.y1 - c.y0, sideRamp(c, W)), {
      raw: { width: c.x1 - c.x0, height: c.y1 - c.y0, channels: 4 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    left = c.x0;
    top = c.y0;
  } else {
    layer = await portraitScaled.removeAlpha().png({ compressionLevel: 0 }).toBuffer();
  }
  const out = await base
    .composite([{ input: layer, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (out.info.channels !== 3 || out.info.width !== W || out.info.height !== H) {
    throw new JobFailure("render_failed", "Canvas composition failed.", { detail: JSON.stringify(out.info) });
  }
  return { rgb: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength), placement };
}

/**
 * Whole-head framing: per column of the visible portrait rect `c`, the opacity (0..255) that fades its
 * left and/or right edge into the sides over `share` of W (W/80 for the photo; the person layer's is its
 * own) where it ends inside the canvas (rows alike, given the rect's rows and the height).
 */
export function sideRamp(c: { x0: number; x1: number }, W: number, share = 1 / 80): Uint8Array {
  const w = c.x1 - c.x0;
  const f = Math.max(4, Math.round(W * share));
  const ramp = new Uint8Array(w);
  for (let x = 0; x < w; x++) {
    let a = 1;
    if (c.x0 > 0) a = Math.min(a, (x + 0.5) / f);
    if (c.x1 < W) a = Math.min(a, (w - x - 0.5) / f);
    ramp[x] = Math.round(255 * Math.min(1, a) * Math.min(1, a) * (3 - 2 * Math.min(1, a)));
  }
  return ramp;
}

/** RGB → RGBA with the column opacities `ramp`. */
function featherSides(rgb: Buffer, w: number, h: number, ramp: Uint8Array): Buffer {
  const out = Buffer.alloc(w * h * 4);
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const i = y * w + x;
      out[i * 4] = rgb[i * 3];
      out[i * 4 + 1] = rgb[i * 3 + 1];
      out[i * 4 + 2] = rgb[i * 3 + 2];
      out[i * 4 + 3] = ramp[x];
    }
  }
  return out;
}
