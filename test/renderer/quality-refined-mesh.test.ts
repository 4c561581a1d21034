/**
 * The quality script's lip and eye reading (scripts/quality/refined-mesh.ts, docs/animation.md "How the
 * opening is read", "Why blinks are read by both meshes"): the refined MediaPipe mesh, run in
 * Chromium, follows a painted opening and a painted blink on a real portrait and finds no face where there
 * is none; the gap is the mean of three inner-lip pairs in eye-corner units.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { innerLipGap } from "../../scripts/quality/metrics";
import { POSE_SIZE, posePainter } from "../../scripts/quality/paint-pose";
import { RefinedMesh } from "../../scripts/quality/refined-mesh";
import { fixture } from "../fixtures/portraits/derive";
import { testAvatar } from "./helpers/media-avatar";

describe("inner-lip gap", () => {
  it("is the mean of the pairs 82–87, 13–14, 312–317 over the eye-corner distance 33–263", () => {
    const m: number[][] = Array.from({ length: 478 }, () => [0, 0]);
    m[33] = [0, 0];
    m[263] = [200, 0];
    [m[82], m[87]] = [
      [90, 100],
      [90, 110],
    ];
    [m[13], m[14]] = [
      [100, 100],
      [100, 130],
    ];
    [m[312], m[317]] = [
      [110, 100],
      [110, 120],
    ];
    expect(innerLipGap(m)).toBeCloseTo(20 / 200, 6);
  });
});

describe("refined face mesh in Chromium", () => {
  let mesh: RefinedMesh;
  beforeAll(async () => {
    mesh = await RefinedMesh.open();
  });
  afterAll(async () => {
    await mesh?.close();
  });

  it("reads a painted opening on a real portrait as open, and the photo at rest as closed", async () => {
    const a = await testAvatar("single-phone");
    const painter = await posePainter(a.portraitPng, a.rig);
    try {
      const gaps: Array<{ painted: number; read: number }> = [];
      for (const open of [0, 1]) {
        const { positions, rgb } = painter.paint({ ...NEUTRAL_POSE, open });
        const read = await mesh.detect(rgb, POSE_SIZE, POSE_SIZE);
        expect(read, `a face at open ${open}`).not.toBeNull();
        expect(read!.length).toBe(478);
        const painted = innerLipGap(
          Array.from({ length: painter.model.count }, (_, i) => [positions[i * 2], positions[i * 2 + 1]]),
        );
        gaps.push({ painted, read: innerLipGap(read!) });
      }
      const [rest, wide] = gaps;
      expect(rest.read, "lips together in the photo").toBeLessThan(0.05);
      // The painted opening is read at 60–160 % of the renderer's own lip points (1.11 on the phone portrait).
      const ratio = (wide.read - rest.read) / (wide.painted - rest.painted);
      expect(ratio, `read ÷ painted ${ratio.toFixed(2)}`).toBeGreaterThan(0.6);
      expect(ratio).toBeLessThan(1.6);
    } finally {
      painter.close();
    }
  });

  it("reads a painted blink as closed eyes", async () => {
    const a = await testAvatar("single-phone");
    const painter = await posePainter(a.portraitPng, a.rig);
    try {
      const eyes = async (blink: number) => {
        const m = (await mesh.detect(
          painter.paint({ ...NEUTRAL_POSE, blinkR: blink, blinkL: blink }).rgb,
          POSE_SIZE,
          POSE_SIZE,
        ))!;
        const d = (i: number, j: number) => Math.hypot(m[i][0] - m[j][0], m[i][1] - m[j][1]);
        return [d(159, 145), d(386, 374)];
      };
      const open = await eyes(0);
      const closed = await eyes(1);
      // The quality script counts a blink below 0.67 of the eye's own open reading.
      for (const k of [0, 1])
        expect(closed[k] / open[k], `eye ${k}: ${closed[k].toFixed(1)} of ${open[k].toFixed(1)} px`).toBeLessThan(0.67);
    } finally {
      painter.close();
    }
  });

  it("finds no face in a photo without one", async () => {
    const S = 512;
    const rgb = await sharp(fixture("no-face-stairs")).resize(S, S, { fit: "cover" }).removeAlpha().raw().toBuffer();
    expect(await mesh.detect(rgb, S, S)).toBeNull();
  });
});
