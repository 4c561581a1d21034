/**
 * Static composition of the canvas: background (colour or image with cover/contain/stretch) and the
 * portrait (crop = cover the canvas, contain = fit inside). Produces the raw RGB canvas the animator warps
 * from, and the portrait placement used to map rig coordinates to canvas pixels.
 */
import sharp from "sharp";
import { JobFailure } from "../job-failure";
import type { Placement } from "../animate/geometry";
import type { AvatarRig } from "../rig";

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

/**
 * Where the portrait goes. crop: scale to cover the canvas, then position so the face centre sits at the
 * canvas centre horizontally and 45 % down vertically, clamped so the canvas stays covered.
 * contain: scale to fit inside, centred.
 */
export function placePortrait(rig: AvatarRig, pw: number, ph: number, s: CanvasSettings): Placement & { width: number; height: number } {
  const W = s.width;
  const H = s.height;
  if (s.fit === "contain") {
    const k = Math.min(W / pw, H / ph);
    const w = Math.max(1, Math.min(W, Math.round(pw * k)));
    const h = Math.max(1, Math.min(H, Math.round(ph * k)));
    const ox = Math.floor((W - w) / 2);
    const oy = Math.floor((H - h) / 2);
    return { scaleX: w / pw, scaleY: h / ph, offsetX: ox, offsetY: oy, width: w, height: h, clip: { x0: ox, y0: oy, x1: ox + w, y1: oy + h } };
  }
  const k = Math.max(W / pw, H / ph);
  const w = Math.max(W, Math.round(pw * k));
  const h = Math.max(H, Math.round(ph * k));
  const fb = rig.faceBox;
  const fcx = (fb.x + fb.width / 2) * (w / pw);
  const fcy = (fb.y + fb.height / 2) * (h / ph);
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const ox = Math.round(clamp(W / 2 - fcx, W - w, 0));
  const oy = Math.round(clamp(H * 0.45 - fcy, H - h, 0));
  return { scaleX: w / pw, scaleY: h / ph, offsetX: ox, offsetY: oy, width: w, height: h, clip: { x0: 0, y0: 0, x1: W, y1: H } };
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
  let pmeta: sharp.Metadata;
  try {
    pmeta = await sharp(portraitPng).metadata();
  } catch (e) {
    throw new JobFailure("render_failed", "The avatar portrait could not be read.", false, String(e));
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

  // Background layer.
  let base: sharp.Sharp;
  if (background && background.length > 0) {
    const fit = s.backgroundFit === "stretch" ? "fill" : s.backgroundFit;
    let bgImg: Buffer;
    try {
      bgImg = await sharp(background, { failOn: "none" })
        .rotate()
        .flatten({ background: bg })
        .resize(W, H, { fit, background: { ...bg, alpha: 1 }, position: "centre" })
        .removeAlpha()
        .raw()
        .toBuffer();
    } catch (e) {
      throw new JobFailure("unsupported_media_type", "The background image could not be decoded.", false, String(e));
    }
    base = sharp(bgImg, { raw: { width: W, height: H, channels: 3 } });
  } else {
    base = sharp({ create: { width: W, height: H, channels: 3, background: bg } });
  }

  const portraitScaled = sharp(portraitPng).flatten({ background: bg }).resize(place.width, place.height, { fit: "fill", kernel: "lanczos3" });
  let layer: Buffer;
  let left = place.offsetX;
  let top = place.offsetY;
  if (s.fit === "crop") {
    layer = await portraitScaled
      .extract({ left: -place.offsetX, top: -place.offsetY, width: W, height: H })
      .removeAlpha()
      .png({ compressionLevel: 0 })
      .toBuffer();
    left = 0;
    top = 0;
  } else {
    layer = await portraitScaled.removeAlpha().png({ compressionLevel: 0 }).toBuffer();
  }
  const out = await base.composite([{ input: layer, left, top }]).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (out.info.channels !== 3 || out.info.width !== W || out.info.height !== H) {
    throw new JobFailure("render_failed", "Canvas composition failed.", true, JSON.stringify(out.info));
  }
  return { rgb: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength), placement };
}

/** Average RGB in a small disc around canvas points. */
export function sampleColor(rgb: Uint8Array, W: number, H: number, pts: Array<[number, number]>, radius: number): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  const rr = Math.max(1, Math.round(radius));
  for (const [cx, cy] of pts) {
    for (let dy = -rr; dy <= rr; dy++) {
      for (let dx = -rr; dx <= rr; dx++) {
        if (dx * dx + dy * dy > rr * rr) continue;
        const x = Math.round(cx + dx);
        const y = Math.round(cy + dy);
        if (x < 0 || y < 0 || x >= W || y >= H) continue;
        const o = (y * W + x) * 3;
        r += rgb[o];
        g += rgb[o + 1];
        b += rgb[o + 2];
        n++;
      }
    }
  }
  if (!n) return [160, 120, 100];
  return [r / n, g / n, b / n];
}
