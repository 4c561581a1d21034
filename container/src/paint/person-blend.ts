/**
 * The person layer over the background, in YUV 4:2:0: out = (a·person + (255 − a)·background) / 255,
 * rounded. `person` is yuva420p (the yuv420p planes, then the full-resolution alpha plane); chroma uses the
 * mean alpha of its 2×2 luma block. The static frame is made with the same function, so a pixel the warp
 * did not touch is blended to exactly its static value.
 */
import type { Rect } from "@avatar-video/face-rig";
import type { Yuv420Layout } from "./yuv";

/**
 * Whether a render has a person layer (video/person-scene.ts chooses): none; "over" a new background
 * (every frame blended from the person); "beside" the unchanged video (for the alpha video alone).
 */
export type PersonMode = "none" | "over" | "beside";

/** round(x / 255) for 0 ≤ x ≤ 255². */
const div255 = (x: number) => (x + 128 + ((x + 128) >> 8)) >> 8;

/** Blend the luma rect `r` (even-aligned) and its chroma into `out` (yuv420p). */
export function blendPerson(
  person: Uint8Array,
  background: Uint8Array,
  out: Uint8Array,
  L: Yuv420Layout,
  r: Rect,
): void {
  const W = L.width;
  const cw = W >> 1;
  const A = L.frameSize;
  for (let y = r.y0; y < r.y1; y++) {
    for (let i = y * W + r.x0, end = y * W + r.x1; i < end; i++) {
      const a = person[A + i];
      out[i] = a === 255 ? person[i] : a === 0 ? background[i] : div255(a * person[i] + (255 - a) * background[i]);
    }
  }
  for (let cy = r.y0 >> 1; cy < r.y1 >> 1; cy++) {
    for (let cx = r.x0 >> 1; cx < r.x1 >> 1; cx++) {
      const p = A + 2 * cy * W + 2 * cx;
      const a = (person[p] + person[p + 1] + person[p + W] + person[p + W + 1] + 2) >> 2;
      const u = L.ySize + cy * cw + cx;
      const v = u + L.cSize;
      if (a === 255) {
        out[u] = person[u];
        out[v] = person[v];
      } else if (a === 0) {
        out[u] = background[u];
        out[v] = background[v];
      } else {
        out[u] = div255(a * person[u] + (255 - a) * background[u]);
        out[v] = div255(a * person[v] + (255 - a) * background[v]);
      }
    }
  }
}
