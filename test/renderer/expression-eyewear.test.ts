/**
 * Glasses stay rigid under an expression (container/src/paint/eyewear.ts): spectacles drawn on the camera
 * test portrait's still stay where the head alone carries them while the brows and lids move behind them,
 * and the test portraits' own brows, lashes and hair are never taken for eyewear.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  deform,
  type ExpressionWeights,
  type FaceModel,
  type FacePose,
  mouthColors,
  NEUTRAL_POSE,
} from "@avatar-video/face-rig";
import { FramePainter, findEyewear } from "../../container/src/paint/public";
import { testStills, withGlasses } from "./helpers/spectacles";

const S = 768;
const NONE: ExpressionWeights = { happy: 0, serious: 0, surprised: 0, sad: 0 };
let stills: Record<string, { model: FaceModel; still: Uint8Array }> = {};

beforeAll(async () => {
  stills = await testStills(S);
}, 120_000);

const at = (m: FaceModel, pose: FacePose) => deform(m, pose, new Float32Array(m.count * 2));

describe("eyewear under an expression", () => {
  it("finds none on the test portraits without glasses, and the drawn spectacles on one with them", () => {
    for (const { model, still } of Object.values(stills)) expect(findEyewear(model, still, S, S)).toBeUndefined();
    const { model, still } = stills["single-camera"];
    const ew = findEyewear(model, withGlasses(model, still, S).frame, S, S);
    expect(ew).toBeDefined();
  });

  it("keeps the rims where the head carries them while the brows and lids move", async () => {
    const { model, still } = stills["single-camera"];
    const glasses = withGlasses(model, still, S).frame;
    const colors = mouthColors([200, 160, 140], [160, 80, 80]);
    const painter = await FramePainter.create(model, colors, glasses, S, S, { threads: 1, poolSize: 1 });
    const plain = await FramePainter.create(model, colors, still, S, S, { threads: 1, poolSize: 1 });
    try {
      for (const head of [NEUTRAL_POSE, { ...NEUTRAL_POSE, yaw: 4, pitch: 3, roll: 3 }])
        for (const [name, blink] of [
          ["surprised", 0],
          ["sad", 0],
          ["serious", 0],
          ["surprised", 0.6],
        ] as const) {
          const label = `${name}, blink ${blink}, yaw ${head.yaw}`;
          const rigid = { ...head, blinkR: 0, blinkL: 0 };
          const still0 = at(model, rigid);
          painter.paint(still0, rigid, 0);
          const open = Uint8Array.from(painter.pool[0].subarray(0, S * S));
          plain.paint(still0, rigid, 0);
          const bare = plain.pool[0];
          const pose = { ...head, blinkR: blink, blinkL: blink, expression: { ...NONE, [name]: 0.8 } };
          const xy = at(model, pose);
          // The rims where the head carries them (far darker than without spectacles) that the expression
          // would move: the mesh under them moves by more than a pixel and a half.
          const watched: number[] = [];
          for (let i = 0; i < S * S; i++)
            if (open[i] < bare[i] - 40 && movedNear(model, xy, still0, i % S, Math.floor(i / S))) watched.push(i);
          expect(watched.length, label).toBeGreaterThan(100);
          painter.paint(xy, pose, 0);
          const f = painter.pool[0];
          const off = watched.filter((i) => Math.abs(f[i] - open[i]) > 6).length;
          expect(off / watched.length, label).toBeLessThan(0.03);
          // The face still moves behind them: brows and lids away from the rims differ from the rigid pose.
          let changed = 0;
          for (let i = 0; i < S * S; i++) if (open[i] >= bare[i] - 40 && Math.abs(f[i] - open[i]) > 12) changed++;
          expect(changed, label).toBeGreaterThan(200);
        }
    } finally {
      painter.close();
      plain.close();
    }
  });
});

/** Whether the vertex nearest to pixel (x, y) in pose b (within 3 % of the canvas) is 1.5 px elsewhere in pose a. */
function movedNear(m: FaceModel, a: Float32Array, b: Float32Array, x: number, y: number): boolean {
  let best = Infinity;
  let k = -1;
  for (let i = 0; i < m.count; i++) {
    const d = Math.hypot(b[i * 2] - x, b[i * 2 + 1] - y);
    if (d < best) {
      best = d;
      k = i;
    }
  }
  return best < 0.03 * S && Math.hypot(a[k * 2] - b[k * 2], a[k * 2 + 1] - b[k * 2 + 1]) > 1.5;
}
