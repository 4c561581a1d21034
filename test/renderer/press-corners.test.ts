/**
 * Her smile closed (a press, an expression's held mouth) meets up to the commissures (docs/animation.md,
 * "Teeth are teeth"; face-rig deform.ts). The teeth portrait's opening runs past the mesh's inner-lip corners
 * (0.1 half widths at the image-right one); that tip, left outside the inner-lip loop, stayed open between
 * the sealed lips and the commissure: a light 3×3 px fleck at the image-right corner, 2–3 light pixels at the
 * image-left one. Rule, about pixels: along the last stretch of the lips' meeting line at each corner, no spot
 * smaller than 7×7 px stands more than 25 luma levels above its surroundings (a white top-hat: luma minus its
 * grey opening). Before the fix (image-right, image-left): press 1 46 and 50, serious 41 and 24; now 12 and 20,
 * 14 and 10; on the phone, medium and glasses portraits, whose lips meet at rest and are unchanged, 2–16.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FacePose, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { POSE_SIZE, type PosePainter } from "../../scripts/quality/paint-pose";
import { teethPainter } from "./helpers/teeth-portrait";

/** Top-hat radius (px): a fleck is smaller than 2R + 1 square. */
const R = 3;
const MAX_SPOT = 25;

let painter: PosePainter;
beforeAll(async () => {
  painter = await teethPainter();
});
afterAll(() => painter?.close());

/** Grey erosion (min) or dilation (max) over a (2r+1)² square, edges clamped; w × h luma. */
function morph(src: Float64Array, w: number, h: number, r: number, pick: (a: number, b: number) => number) {
  const out = new Float64Array(src.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = src[y * w + x];
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const yy = Math.min(h - 1, Math.max(0, y + dy));
          const xx = Math.min(w - 1, Math.max(0, x + dx));
          v = pick(v, src[yy * w + xx]);
        }
      out[y * w + x] = v;
    }
  return out;
}

/**
 * The brightest spot (luma over its grey opening) within 0.08 half widths of the lips' meeting line, from
 * a fifth of the way out of the inner-lip pair next to the corner to the commissure.
 */
function cornerSpot(rgb: Buffer, pos: Float32Array, pair: [number, number], commissure: number): number {
  const hw = painter.model.mouth.halfWidth;
  const at = (i: number) => [pos[i * 2], pos[i * 2 + 1]];
  const [ux, uy] = at(pair[0]);
  const [lx, ly] = at(pair[1]);
  const mx = (ux + lx) / 2;
  const my = (uy + ly) / 2;
  const [cx, cy] = at(commissure);
  const len = Math.hypot(cx - mx, cy - my);
  const [dx, dy] = [(cx - mx) / len, (cy - my) / len];
  const pad = Math.ceil(0.08 * hw) + 2 * R + 2;
  const x0 = Math.floor(Math.min(mx, cx)) - pad;
  const y0 = Math.floor(Math.min(my, cy)) - pad;
  const w = Math.ceil(Math.max(mx, cx)) + pad - x0;
  const h = Math.ceil(Math.max(my, cy)) + pad - y0;
  const luma = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = ((y0 + y) * POSE_SIZE + x0 + x) * 3;
      luma[y * w + x] = 0.299 * rgb[o] + 0.587 * rgb[o + 1] + 0.114 * rgb[o + 2];
    }
  const opened = morph(morph(luma, w, h, R, Math.min), w, h, R, Math.max);
  let spot = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const rx = x0 + x + 0.5 - mx;
      const ry = y0 + y + 0.5 - my;
      const t = (rx * dx + ry * dy) / len;
      if (t < 0.2 || t > 1 || Math.abs(rx * dy - ry * dx) > 0.08 * hw) continue;
      spot = Math.max(spot, luma[y * w + x] - opened[y * w + x]);
    }
  return spot;
}

const closed: Array<[string, Partial<FacePose>]> = [
  ["press 0.8", { press: 0.8, relax: 1 }],
  ["press 1", { press: 1, relax: 1 }],
  ["a serious expression's closed mouth", { expression: { happy: 0, serious: 1, surprised: 0, sad: 0 } }],
];

describe("her smile closed, at the corners", () => {
  it.each(closed)("%s: no light fleck where the lips meet the commissures", (_, pose) => {
    const m = painter.model;
    const { rgb, positions } = painter.paint({ ...NEUTRAL_POSE, ...pose });
    const up = m.mouth.upperInner;
    const lo = m.mouth.lowerInner;
    const n = up.length;
    // FaceMesh commissures: 61 (image-left), 291 (image-right).
    const left = cornerSpot(rgb, positions, [up[1], lo[1]], 61);
    const right = cornerSpot(rgb, positions, [up[n - 2], lo[n - 2]], 291);
    expect(right, "image-right corner").toBeLessThanOrEqual(MAX_SPOT);
    expect(left, "image-left corner").toBeLessThanOrEqual(MAX_SPOT);
  });
});
