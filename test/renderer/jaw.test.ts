/**
 * The jaw (docs/animation.md, "Jaw"): when the mouth opens wide the chin moves down over the neck, and the
 * skin between the chin and the fixed outer anchor ring takes up that move evenly. If the first ring below
 * the chin lags far behind it, the band just under the chin is squeezed to a sliver and the chin line
 * shows as a hard polygon edge pasted on the neck.
 */
import { describe, expect, it } from "vitest";
import { buildFaceModel, deform, FACE_POINTS, NEUTRAL_POSE, SILHOUETTE } from "@avatar-video/face-rig";
import { composeCanvas } from "../../container/src/paint/public";
import { testAvatar } from "./helpers/media-avatar";

const S = 768;
const settings = { width: S, height: S, fit: "crop", backgroundColor: "#000000", backgroundFit: "cover" } as const;
const RING_END = FACE_POINTS + SILHOUETTE.length * 3;

describe("jaw drop", () => {
  for (const name of ["single-phone", "single-camera"] as const) {
    it(`squeezes the skin under the chin at most 1.7× at the widest opening (${name})`, async () => {
      const a = await testAvatar(name);
      const { placement } = await composeCanvas(a.portraitPng, a.rig, undefined, settings);
      const model = buildFaceModel(a.rig, placement);
      const open = deform(model, { ...NEUTRAL_POSE, open: 1 }, new Float32Array(model.count * 2));
      const chinY = model.base[152 * 2 + 1];
      const area = (p: Float32Array, t: number) => {
        const [i, j, k] = [model.tris[t], model.tris[t + 1], model.tris[t + 2]];
        return (
          Math.abs(
            (p[j * 2] - p[i * 2]) * (p[k * 2 + 1] - p[i * 2 + 1]) -
              (p[k * 2] - p[i * 2]) * (p[j * 2 + 1] - p[i * 2 + 1]),
          ) / 2
        );
      };
      // Triangles of the ring strips that lie below the chin line (the oval's lowest point).
      let worst = Infinity;
      let counted = 0;
      for (let t = 0; t < model.tris.length; t += 3) {
        const v = [model.tris[t], model.tris[t + 1], model.tris[t + 2]];
        if (!v.some((i) => i >= FACE_POINTS && i < RING_END)) continue;
        if (v.some((i) => model.base[i * 2 + 1] < chinY - 2)) continue;
        const rest = area(model.base, t);
        if (rest < 4) continue;
        worst = Math.min(worst, area(open, t) / rest);
        counted++;
      }
      expect(counted).toBeGreaterThan(3);
      // The jaw really moved down (the check would pass trivially otherwise).
      expect(open[152 * 2 + 1] - chinY).toBeGreaterThan(model.interocular * 0.08);
      expect(1 / worst, `worst squeeze ${(1 / worst).toFixed(2)}×`).toBeLessThan(1.7);
    });
  }
});
