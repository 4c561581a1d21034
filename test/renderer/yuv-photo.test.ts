/**
 * One RGB → yuv420p conversion (face-rig's yuv420FromPixels) for the renderer's canvas (container/src/paint/yuv.ts) and the
 * live client's portrait (RGBA in the browser), so the mouth style and the photo's own teeth sampled from it
 * are the same figures (docs/motion.md, "The same mouth as the video").
 */
import { describe, expect, it } from "vitest";
import { yuv420FromPixels } from "@avatar-video/face-rig";
import { rgbToYuv420 } from "../../container/src/paint/public";

describe("yuv420FromPixels", () => {
  it("gives BT.709 limited-range values: white, black and pure red", () => {
    const solid = (r: number, g: number, b: number) =>
      Array.from(rgbToYuv420(new Uint8Array([r, g, b, r, g, b, r, g, b, r, g, b]), 2, 2));
    expect(solid(255, 255, 255)).toEqual([235, 235, 235, 235, 128, 128]);
    expect(solid(0, 0, 0)).toEqual([16, 16, 16, 16, 128, 128]);
    expect(solid(255, 0, 0)).toEqual([63, 63, 63, 63, 102, 240]);
  });

  it("reads RGBA (the browser's pixels) as it reads RGB", () => {
    const W = 38;
    const H = 22;
    const rgb = new Uint8Array(W * H * 3);
    let s = 7;
    for (let i = 0; i < rgb.length; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      rgb[i] = s >>> 24;
    }
    const rgba = new Uint8Array(W * H * 4);
    for (let i = 0; i < W * H; i++) rgba.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, 255], i * 4);
    expect(yuv420FromPixels({ data: rgba, width: W, height: H, channels: 4 })).toEqual(rgbToYuv420(rgb, W, H));
  });
});
