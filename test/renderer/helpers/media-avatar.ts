/**
 * Test avatars for renderer tests: the committed fixture photos run through the real Avatar preprocessing
 * (createAvatarAssets), once per test process, cached.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AvatarRig } from "@avatar-video/contract";
import type { RenderSettings } from "../../../container/src/video/public";

export interface TestAvatar {
  portraitPng: Buffer;
  rig: AvatarRig;
  /** The person matte made with it (undefined if it could not be made). */
  mattePng?: Buffer;
}

const cache = new Map<string, Promise<TestAvatar>>();

export function testAvatar(name: "single-phone" | "single-camera" = "single-phone"): Promise<TestAvatar> {
  let p = cache.get(name);
  if (!p) {
    p = (async () => {
      const { createAvatarAssets } = await import("../../../container/src/avatar/public");
      const bytes = readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "portraits", `${name}.jpg`));
      const a = await createAvatarAssets(bytes);
      return { portraitPng: a.portraitPng, rig: a.rig, mattePng: a.mattePng };
    })();
    cache.set(name, p);
  }
  return p;
}

/** Rect around the mouth / eyes in canvas pixels, from the rig and the portrait placement. */
export function featureBox(
  rig: AvatarRig,
  place: { scaleX: number; scaleY: number; offsetX: number; offsetY: number },
  indices: number[],
  pad: number,
): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const i of indices) {
    const [x, y] = rig.landmarks[i];
    const cx = x * place.scaleX + place.offsetX;
    const cy = y * place.scaleY + place.offsetY;
    x0 = Math.min(x0, cx);
    y0 = Math.min(y0, cy);
    x1 = Math.max(x1, cx);
    y1 = Math.max(y1, cy);
  }
  return { x0: Math.floor(x0 - pad), y0: Math.floor(y0 - pad), x1: Math.ceil(x1 + pad), y1: Math.ceil(y1 + pad) };
}

/** The small square canvas most renderer tests draw on: 256², the portrait cropped to fill it, black, no leads. */
export const SMALL_SQUARE: RenderSettings = {
  width: 256,
  height: 256,
  fit: "crop",
  backgroundColor: "#000000",
  backgroundFit: "cover",
  leadInSeconds: 0,
  leadOutSeconds: 0,
};
