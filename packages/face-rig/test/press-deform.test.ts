/**
 * M/B/P on a photo whose lips are apart at rest (deform.ts, mouth-rig.ts pressExcessOffsets; docs/animation.md,
 * "Teeth are teeth"): the lips meet at a full press however wide the photo's gap, cover its teeth faster than
 * the press grows, and a photo whose lips already meet presses exactly as before.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildFaceModel, deform, type FaceModel, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { testAvatar } from "../../../test/renderer/helpers/media-avatar";

let closed: FaceModel;
/** The same face with its lower lip lowered by 0.45 half mouth widths at the middle (a smile showing teeth). */
let parted: FaceModel;
const LOWER = [
  [95, 88, 178, 87, 14, 317, 402, 318, 324],
  [96, 89, 179, 86, 15, 316, 403, 319, 325],
  [77, 90, 180, 85, 16, 315, 404, 320, 307],
  [146, 91, 181, 84, 17, 314, 405, 321, 375],
];
/** Inner-lip pairs across the middle of the mouth (upper, lower). */
const PAIRS = [
  [81, 178],
  [82, 87],
  [13, 14],
  [312, 317],
  [311, 402],
];

beforeAll(async () => {
  const a = await testAvatar("single-phone");
  const place = { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0, clip: { x0: 0, y0: 0, x1: 4000, y1: 4000 } };
  closed = buildFaceModel(a.rig, place);
  const hw = closed.mouth.halfWidth;
  const landmarks = a.rig.landmarks.map((p) => [...p] as [number, number, number]);
  for (const row of LOWER)
    row.forEach((i, k) => {
      const side = (k - 4) / 4;
      landmarks[i][1] += 0.45 * hw * (1 - side * side);
    });
  parted = buildFaceModel({ ...a.rig, landmarks }, place);
});

/** Gap between an inner-lip pair along the mouth's down axis, px. */
function gap(m: FaceModel, xy: Float32Array, [up, lo]: number[]): number {
  const [ex, ey] = m.mouth.ey;
  return (xy[lo * 2] - xy[up * 2]) * ex + (xy[lo * 2 + 1] - xy[up * 2 + 1]) * ey;
}

const pose = (m: FaceModel, press: number) =>
  deform(m, { ...NEUTRAL_POSE, press, relax: 1 }, new Float32Array(m.count * 2));

describe("a press on parted lips", () => {
  it("closes a wide gap all the way at press 1", () => {
    const rest = pose(parted, 0);
    const full = pose(parted, 1);
    for (const p of PAIRS) {
      expect(gap(parted, rest, p)).toBeGreaterThan(0.3 * parted.mouth.halfWidth);
      expect(Math.abs(gap(parted, full, p)), `pair ${p}`).toBeLessThan(1);
    }
  });

  it("covers most of the gap by half a press", () => {
    const rest = gap(parted, pose(parted, 0), [13, 14]);
    expect(gap(parted, pose(parted, 0.5), [13, 14])).toBeLessThan(0.35 * rest);
    expect(gap(parted, pose(parted, 0.8), [13, 14])).toBeLessThan(0.1 * rest);
  });

  it("leaves a photo whose lips meet at rest as it was: no extra closing", () => {
    expect(closed.pressCloseV.every((v) => v === 0)).toBe(true);
    expect(closed.pressCloseU.every((v) => v === 0)).toBe(true);
    expect(parted.pressCloseV.some((v) => v !== 0)).toBe(true);
  });
});
