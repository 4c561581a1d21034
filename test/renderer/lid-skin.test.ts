/**
 * Lid skin in a blink (container/src/paint/lid-skin.ts) and the misplaced-eye guard
 * (packages/face-rig/src/eye-symmetry.ts), on the camera test portrait's real face model at 768².
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildFaceModel, deform, NEUTRAL_POSE, type FaceModel } from "@avatar-video/face-rig";
import { repairMisplacedEye } from "../../packages/face-rig/src/eye-symmetry";
import { lidSkinPlan, smoothLidSkin, composeCanvas } from "../../container/src/paint/public";
import { testAvatar } from "./helpers/media-avatar";

const S = 768;
let model: FaceModel;
beforeAll(async () => {
  const a = await testAvatar("single-camera");
  const { placement } = await composeCanvas(a.portraitPng, a.rig, undefined, {
    width: S,
    height: S,
    fit: "crop",
    backgroundColor: "#000000",
    backgroundFit: "cover",
  });
  model = buildFaceModel(a.rig, placement);
}, 120_000);

/** A yuv420p frame of vertical stripes (4 px period, like stretched lash tips), flat chroma. */
function stripes(): Uint8Array {
  const f = new Uint8Array(S * S * 1.5).fill(128);
  for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) f[y * S + x] = x % 4 < 2 ? 90 : 160;
  return f;
}

/** Mean |horizontal step| of the luma over a box. */
function streakEnergy(f: Uint8Array, x0: number, y0: number, x1: number, y1: number): number {
  let s = 0,
    n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++, n++) s += Math.abs(f[y * S + x + 1] - f[y * S + x]);
  return s / n;
}

describe("lid skin in a blink", () => {
  it("smooths the stretched lid skin of a closed eye, only there, and leaves an open eye alone", () => {
    const plan = lidSkinPlan(model);
    const open = deform(model, NEUTRAL_POSE, new Float32Array(model.count * 2));
    const still = stripes();
    const untouched = Uint8Array.from(still);
    smoothLidSkin(untouched, S, S, open, model, plan, 0);
    expect(untouched).toEqual(still);

    const closed = deform(model, { ...NEUTRAL_POSE, blinkR: 1, blinkL: 1 }, new Float32Array(model.count * 2));
    const f = Uint8Array.from(still);
    smoothLidSkin(f, S, S, closed, model, plan, 0);
    // Just above the closed lid's lash band (the stretched lid skin that covered the eye; the lash band
    // itself moves rigidly), per eye: the lid grid's row 1 (eyelid-mesh.ts, 17 × 10 per eye, last in the mesh).
    for (let e = 0; e < 2; e++) {
      const row1 = model.count - 2 * 170 + e * 170 + 17;
      const ids = Array.from({ length: 15 }, (_, k) => row1 + 1 + k);
      const xs = ids.map((i) => closed[i * 2]);
      const ys = ids.map((i) => closed[i * 2 + 1]);
      const x0 = Math.round(Math.min(...xs) + 0.3 * (Math.max(...xs) - Math.min(...xs)));
      const x1 = Math.round(Math.max(...xs) - 0.3 * (Math.max(...xs) - Math.min(...xs)));
      const yEdge = Math.round(ys.reduce((a, b) => a + b, 0) / ys.length);
      const before = streakEnergy(still, x0, yEdge - 6, x1, yEdge - 2);
      const after = streakEnergy(f, x0, yEdge - 6, x1, yEdge - 2);
      expect(after, `streaks ${after.toFixed(1)} vs ${before.toFixed(1)}`).toBeLessThan(0.35 * before);
    }
    // Far from the eyes nothing changes (mouth, cheeks, background).
    const mouthRow = Math.round(model.mouth.oy);
    expect(f.subarray(mouthRow * S, (mouthRow + 40) * S)).toEqual(still.subarray(mouthRow * S, (mouthRow + 40) * S));
  });
});

describe("misplaced eye guard", () => {
  it("leaves a rig with two plausible eyes unchanged", () => {
    const base = Float32Array.from(model.base);
    const z = Float32Array.from(model.z);
    expect(repairMisplacedEye(base, z)).toBeUndefined();
    expect(base).toEqual(model.base);
  });

  it("replaces an eye fitted at half size by the other eye, mirrored", () => {
    const base = Float32Array.from(model.base);
    const z = Float32Array.from(model.z);
    // Shrink the left eye's contour to 45 % around its centre, as FaceMesh did on one sample portrait.
    const rows = [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398];
    const cx = rows.reduce((s, i) => s + base[i * 2], 0) / rows.length;
    const cy = rows.reduce((s, i) => s + base[i * 2 + 1], 0) / rows.length;
    for (const i of rows) {
      base[i * 2] = cx + (base[i * 2] - cx) * 0.45;
      base[i * 2 + 1] = cy + (base[i * 2 + 1] - cy) * 0.45 + 6;
    }
    expect(repairMisplacedEye(base, z)).toBe("left");
    const w = (a: number, b: number, p: Float32Array) => Math.hypot(p[a * 2] - p[b * 2], p[a * 2 + 1] - p[b * 2 + 1]);
    // Back to a full-size eye near where the real one is: a mirror of the other eye is only as good as the
    // face's symmetry (corners within 0.34 eye widths on this turned face; docs/animation.md).
    expect(w(263, 362, base) / w(33, 133, base)).toBeGreaterThan(0.9);
    for (const i of [263, 362])
      expect(Math.hypot(base[i * 2] - model.base[i * 2], base[i * 2 + 1] - model.base[i * 2 + 1])).toBeLessThan(
        0.4 * w(263, 362, model.base),
      );
  });
});
