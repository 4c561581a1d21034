/**
 * The quality script's lip reading (scripts/quality/refined-lips.ts, docs/animation.md "How the opening is
 * read"): the lip-refining MediaPipe mesh, run in Chromium, follows a painted opening on a real portrait
 * and finds no face where there is none; the gap is the mean of three inner-lip pairs in eye-corner units.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { innerLipGap } from "../../scripts/quality/metrics";
import { POSE_SIZE, posePainter } from "../../scripts/quality/paint-pose";
import { RefinedLips } from "../../scripts/quality/refined-lips";
import { fixture } from "../fixtures/portraits/derive";
import { testAvatar } from "./helpers/media-avatar";

describe("inner-lip gap", () => {
  it("is the mean of the pairs 82–87, 13–14, 312–317 over the eye-corner distance 33–263", () => {
    const m: number[][] = Array.from({ length: 478 }, () => [0, 0]);
    m[33] = [0, 0];
    m[263] = [200, 0];
    [m[82], m[87]] = [[90, 100], [90, 110]];
    [m[13], m[14]] = [[100, 100], [100, 130]];
    [m[312], m[317]] = [[110, 100], [110, 120]];
    expect(innerLipGap(m)).toBeCloseTo(20 / 200, 6);
  });
});

describe("lip-refined face mesh in Chromium", () => {
  let lips: RefinedLips;
  beforeAll(async () => {
    lips = await RefinedLips.open();
  });
  afterAll(async () => {
    await lips?.close();
  });

  it("reads a painted opening on a real portrait as open, and the photo at rest as closed", async () => {
    const a = await testAvatar("single-phone");
    const painter = await posePainter(a.portraitPng, a.rig);
    try {
      const gaps: Array<{ mesh: number; read: number }> = [];
      for (const open of [0, 1]) {
        const { positions, rgb } = painter.paint({ ...NEUTRAL_POSE, open });
        const read = await lips.detect(rgb, POSE_SIZE, POSE_SIZE);
        expect(read, `a face at open ${open}`).not.toBeNull();
        expect(read!.length).toBe(478);
        const mesh = innerLipGap(Array.from({ length: painter.model.count }, (_, i) => [positions[i * 2], positions[i * 2 + 1]]));
        gaps.push({ mesh, read: innerLipGap(read!) });
      }
      const [rest, wide] = gaps;
      expect(rest.read, "lips together in the photo").toBeLessThan(0.05);
      // The painted opening is read at 60–160 % of the renderer's own lip points (1.11 on the phone portrait).
      const ratio = (wide.read - rest.read) / (wide.mesh - rest.mesh);
      expect(ratio, `read ÷ painted ${ratio.toFixed(2)}`).toBeGreaterThan(0.6);
      expect(ratio).toBeLessThan(1.6);
    } finally {
      painter.close();
    }
  });

  it("finds no face in a photo without one", async () => {
    const S = 512;
    const rgb = await sharp(fixture("no-face-stairs")).resize(S, S, { fit: "cover" }).removeAlpha().raw().toBuffer();
    expect(await lips.detect(rgb, S, S)).toBeNull();
  });
});
