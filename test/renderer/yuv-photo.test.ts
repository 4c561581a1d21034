/**
 * The live client reads the portrait as the renderer reads its canvas: face-rig's yuv420FromPixels (RGBA in the
 * browser) gives the renderer's own yuv420p frame (video/yuv.ts), so the mouth style and the photo's own teeth
 * sampled from it are the same figures (docs/motion.md, "The same mouth as the video").
 */
import { describe, expect, it } from "vitest";
import { yuv420FromPixels } from "@avatar-video/face-rig";
import { rgbToYuv420 } from "../../container/src/video/yuv";

describe("yuv420FromPixels", () => {
  it("matches the renderer's conversion byte for byte, from RGB and from RGBA", () => {
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
    const want = rgbToYuv420(rgb, W, H);
    expect(yuv420FromPixels({ data: rgb, width: W, height: H, channels: 3 })).toEqual(want);
    expect(yuv420FromPixels({ data: rgba, width: W, height: H, channels: 4 })).toEqual(want);
  });
});
