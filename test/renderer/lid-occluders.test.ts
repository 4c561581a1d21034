/**
 * Occluders in front of the lids (container/src/paint/lid-occluders.ts, lid-paint.ts): spectacle rims
 * drawn on the camera test portrait's still stay where they are while the lids behind them blink, and the
 * test portraits' own lashes, eyeliner and eyeshadow are never taken for occluders (they move with the lid).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { deform, mouthColors, NEUTRAL_POSE, rasterMax, type FaceModel } from "@avatar-video/face-rig";
import { lidOccluders, lidSkinPlan, FramePainter } from "../../container/src/paint/public";
import { testStills, withGlasses } from "./helpers/spectacles";

const S = 768;
let stills: Record<string, { model: FaceModel; still: Uint8Array }> = {};

beforeAll(async () => {
  stills = await testStills(S);
}, 120_000);

describe("occluders in front of the lids", () => {
  it("finds none on the test portraits: their lashes, eyeliner and eyeshadow move with the lid", () => {
    for (const { model, still } of Object.values(stills)) {
      expect(lidOccluders(model, lidSkinPlan(model), still, S, S).map((o) => o.length)).toEqual([0, 0]);
    }
  });

  it("keeps spectacle rims crossing the lids where they are, from rest to closure", async () => {
    const { model } = stills["single-camera"];
    const { frame: glasses, rim } = withGlasses(model, stills["single-camera"].still, S);
    const plan = lidSkinPlan(model);
    expect(lidOccluders(model, plan, glasses, S, S).map((o) => o.length > 0)).toEqual([true, true]);
    // Rim pixels inside the lids' moving region that the mesh does move: without the occluder layer the
    // warp drags every one of them down with the lid.
    const closedPos = deform(model, { ...NEUTRAL_POSE, blinkR: 1, blinkL: 1 }, new Float32Array(model.count * 2));
    const moved = new Float32Array(S * S);
    for (let t = 0; t < plan.tris.length / 3; t++) {
      const [a, b, c] = [plan.tris[t * 3], plan.tris[t * 3 + 1], plan.tris[t * 3 + 2]];
      if (
        [a, b, c].some(
          (v) => Math.hypot(closedPos[v * 2] - model.base[v * 2], closedPos[v * 2 + 1] - model.base[v * 2 + 1]) > 2,
        )
      )
        rasterMax(moved, 0, 0, S, S, model.base, 1, a, b, c, 1);
    }
    const watched: number[] = [];
    for (let i = 0; i < S * S; i++) if (rim[i] && moved[i]) watched.push(i);
    expect(watched.length).toBeGreaterThan(100);
    const painter = await FramePainter.create(model, mouthColors([200, 160, 140], [160, 80, 80]), glasses, S, S, {
      threads: 1,
      poolSize: 1,
    });
    try {
      for (const c of [0, 0.5, 1]) {
        const pose = { ...NEUTRAL_POSE, blinkR: c, blinkL: c };
        painter.paint(deform(model, pose, new Float32Array(model.count * 2)), pose, 0);
        const f = painter.pool[0];
        const off = watched.filter((i) => Math.abs(f[i] - glasses[i]) > 3).length;
        expect(off / watched.length, `c=${c}`).toBeLessThan(0.02);
      }
      // With the head turned, the rims follow the head, not the lid: the blink frame's dark rim pixels in the
      // lids' region are those of the same pose without the blink.
      const head = { ...NEUTRAL_POSE, yaw: 4, pitch: 3, roll: 3 };
      painter.paint(deform(model, head, new Float32Array(model.count * 2)), head, 0);
      const open = Uint8Array.from(painter.pool[0].subarray(0, S * S));
      // The rims there: where the turned head with spectacles is far darker than without them.
      const plain = await FramePainter.create(
        model,
        mouthColors([200, 160, 140], [160, 80, 80]),
        stills["single-camera"].still,
        S,
        S,
        { threads: 1, poolSize: 1 },
      );
      plain.paint(deform(model, head, new Float32Array(model.count * 2)), head, 0);
      const bare = plain.pool[0];
      plain.close();
      const rims: number[] = [];
      for (let i = 0; i < S * S; i++) if (moved[i] && open[i] < bare[i] - 40) rims.push(i);
      expect(rims.length).toBeGreaterThan(100);
      for (const c of [0.5, 1]) {
        const pose = { ...head, blinkR: c, blinkL: c };
        painter.paint(deform(model, pose, new Float32Array(model.count * 2)), pose, 0);
        const f = painter.pool[0];
        expect(
          rims.filter((i) => Math.abs(f[i] - open[i]) > 6).length / rims.length,
          `turned head, c=${c}`,
        ).toBeLessThan(0.03);
      }
    } finally {
      painter.close();
    }
  });
});
