/**
 * The quality script's SSIM alignment (scripts/quality/register.ts): a frame whose face only moved is
 * aligned by its pixels even when the landmark estimate is off by pixels (as FaceMesh's is when the mouth opens).
 */
import { describe, expect, it } from "vitest";
import { refineSimilarity, type Similarity } from "../../scripts/quality/register";

const W = 160;
const H = 160;
/** Smooth random texture (sum of sines) sampled at (x, y). */
const tex = (x: number, y: number) =>
  128 + 40 * Math.sin(x * 0.21 + y * 0.05) + 30 * Math.sin(y * 0.17 - x * 0.08) + 20 * Math.sin((x + y) * 0.33);

describe("quality alignment", () => {
  it("recovers a sub-pixel shift and a small turn that the landmark estimate got wrong", () => {
    const truth: Similarity = [0.998, -0.012, 1.3, 0.012, 0.998, -0.7]; // ref pixel → image pixel
    const ref = new Uint8Array(W * H);
    const img = new Uint8Array(W * H);
    // img(T p) = ref(p): sample the texture through the inverse for the image.
    const det = truth[0] * truth[4] - truth[1] * truth[3];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        ref[y * W + x] = Math.round(tex(x, y));
        const dx = x - truth[2];
        const dy = y - truth[5];
        const px = (truth[4] * dx - truth[1] * dy) / det;
        const py = (-truth[3] * dx + truth[0] * dy) / det;
        img[y * W + x] = Math.round(tex(px, py));
      }
    }
    const mask = new Uint8Array(W * H);
    const box = { x0: 40, y0: 40, x1: 120, y1: 120 };
    for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) mask[y * W + x] = 1;
    const start: Similarity = [1.006, 0, -1.5, 0, 1.006, 2.5]; // landmarks: 3–4 px and 0.6 % off
    const T = refineSimilarity(ref, img, W, H, mask, box, start);
    const at = (t: Similarity, x: number, y: number) => [t[0] * x + t[1] * y + t[2], t[3] * x + t[4] * y + t[5]];
    for (const [x, y] of [
      [40, 40],
      [120, 40],
      [40, 120],
      [120, 120],
      [80, 80],
    ]) {
      const [ax, ay] = at(T, x, y);
      const [bx, by] = at(truth, x, y);
      expect(Math.hypot(ax - bx, ay - by)).toBeLessThan(0.15);
    }
  });
});
