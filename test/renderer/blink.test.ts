/**
 * Blinks (docs/animation.md, "Blinks"): painted with the real mesh and painter on both test portraits at
 * 768² — the rest pose is the photo, the closed lid covers the whole eye opening with lid skin (nothing as
 * bright as the eye white left, no fold-over anywhere in the mesh), and the lid takes a natural time to
 * close and to open, its moving edge no sharper than the photo's own edges.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { BLINK, blinkAmount } from "@avatar-video/motion-model";
import { buildFaceModel, deform, mouthColors, NEUTRAL_POSE, type FaceModel } from "@avatar-video/face-rig";
import { composeCanvas, FramePainter, rgbToYuv420 } from "../../container/src/paint/public";
import { testAvatar } from "./helpers/media-avatar";

const S = 768;
const settings = { width: S, height: S, fit: "crop", backgroundColor: "#000000", backgroundFit: "cover" } as const;
// FaceMesh eye-opening outlines (outer corner first): upper lid, then lower lid.
const OPENINGS = [
  [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
];

interface Scene {
  model: FaceModel;
  painter: FramePainter;
  still: Uint8Array;
}

const scenes: Record<string, Scene> = {};
beforeAll(async () => {
  for (const name of ["single-phone", "single-camera"] as const) {
    const a = await testAvatar(name);
    const { rgb, placement } = await composeCanvas(a.portraitPng, a.rig, undefined, settings);
    const model = buildFaceModel(a.rig, placement);
    const still = rgbToYuv420(rgb, S, S);
    const painter = await FramePainter.create(model, mouthColors([200, 160, 140], [160, 80, 80]), still, S, S, {
      threads: 1,
      poolSize: 1,
    });
    scenes[name] = { model, painter, still };
  }
}, 120_000);

function paint(sc: Scene, c: number): Uint8Array {
  const pose = { ...NEUTRAL_POSE, blinkR: c, blinkL: c };
  sc.painter.paint(deform(sc.model, pose, new Float32Array(sc.model.count * 2)), pose, 0);
  return Uint8Array.from(sc.painter.pool[0].subarray(0, S * S));
}

/** Luma of the pixels inside a polygon of rest landmarks. */
function inside(sc: Scene, luma: Uint8Array, ids: number[]): number[] {
  const P = ids.map((i) => [sc.model.base[i * 2], sc.model.base[i * 2 + 1]]);
  const xs = P.map((p) => p[0]);
  const ys = P.map((p) => p[1]);
  const out: number[] = [];
  for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
    for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++) {
      let inPoly = false;
      for (let i = 0, j = P.length - 1; i < P.length; j = i++) {
        if (
          P[i][1] > y + 0.5 !== P[j][1] > y + 0.5 &&
          x + 0.5 < ((P[j][0] - P[i][0]) * (y + 0.5 - P[i][1])) / (P[j][1] - P[i][1]) + P[i][0]
        )
          inPoly = !inPoly;
      }
      if (inPoly) out.push(luma[y * S + x]);
    }
  }
  return out;
}

const quantile = (v: number[], q: number) =>
  [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(q * v.length))];

describe.each(["single-phone", "single-camera"])("blink on %s", (name) => {
  it("rest is the photograph in the eye region", () => {
    const sc = scenes[name];
    const f = paint(sc, 0);
    for (const ids of OPENINGS) expect(inside(sc, f, ids)).toEqual(inside(sc, sc.still, ids));
  });

  it("no triangle of the mesh folds over at any point of a blink", () => {
    const { model } = scenes[name];
    const area = (p: Float32Array, t: number) => {
      const [a, b, c] = [model.tris[t], model.tris[t + 1], model.tris[t + 2]];
      return (
        (p[b * 2] - p[a * 2]) * (p[c * 2 + 1] - p[a * 2 + 1]) - (p[c * 2] - p[a * 2]) * (p[b * 2 + 1] - p[a * 2 + 1])
      );
    };
    const out = new Float32Array(model.count * 2);
    for (const c of [0.25, 0.5, 0.75, 0.95, 1]) {
      deform(model, { ...NEUTRAL_POSE, blinkR: c, blinkL: c }, out);
      let flipped = 0;
      // (Collapsed triangles have zero area, give or take float rounding.)
      for (let t = 0; t < model.tris.length; t += 3)
        if (Math.sign(area(model.base, t)) * area(out, t) < -0.01) flipped++;
      expect(flipped, `c=${c}`).toBe(0);
    }
  });

  it("closed lids cover the whole opening with lid skin: nothing as bright as the eye white", () => {
    const sc = scenes[name];
    const closed = paint(sc, 1);
    // On the camera portrait (dark eye make-up) the opening of the refined rig (issue 25) takes in part of the
    // lid margin, whose skin at closure is as bright as the 90th percentile of this eye's opening: 5.6 % of
    // the pixels, with no white left in the crops (docs/phonetic-mouth.md); Human's mesh left a sliver of
    // white at one inner corner (2.6 %).
    const allowed = name === "single-phone" ? 0.005 : 0.06;
    for (const ids of OPENINGS) {
      const white = quantile(inside(sc, sc.still, ids), 0.9);
      const now = inside(sc, closed, ids);
      expect(now.filter((v) => v >= white).length / now.length).toBeLessThan(allowed);
    }
  });
});

/** Largest vertical luma step between two pixels both inside a polygon of rest landmarks, robust (99.5th percentile). */
function edgeStep(sc: Scene, luma: Uint8Array, ids: number[]): number {
  const v = new Uint8Array(luma.length);
  for (let i = 0; i < luma.length - S; i++) v[i] = Math.abs(luma[i + S] - luma[i]);
  return quantile(inside(sc, v, ids), 0.995);
}

describe.each(["single-phone", "single-camera"])("moving lid edge on %s", (name) => {
  it("is no sharper than the photo's own edges in the eye (partly closed)", () => {
    // Without the edge blur (lid-paint.ts) the phone portrait's cut edge steps 91–114 luma levels here at
    // c = 0.3, against 38–46 for the photo's own sharpest edges in the eye.
    const sc = scenes[name];
    for (const c of [0.3, 0.6]) {
      const f = paint(sc, c);
      for (const ids of OPENINGS)
        expect(edgeStep(sc, f, ids), `c=${c}`).toBeLessThanOrEqual(1.1 * edgeStep(sc, sc.still, ids));
    }
  });
});

describe.each(["single-phone", "single-camera"])("closed lid on %s", (name) => {
  it("ends in the photo's own lash line: as dark along the seam as the lid margin at rest", () => {
    const sc = scenes[name];
    const closed = paint(sc, 1);
    const pos = deform(sc.model, { ...NEUTRAL_POSE, blinkR: 1, blinkL: 1 }, new Float32Array(sc.model.count * 2));
    // Darkest luma in a short vertical window at each middle upper-lid point (159 … / 386 …): at rest
    // around the lid line, at closure just above the seam those points now lie on.
    const darkest = (luma: Uint8Array, p: Float32Array, i: number, y0: number, y1: number) => {
      const x = Math.round(p[i * 2]),
        y = Math.round(p[i * 2 + 1]);
      let d = 255;
      for (let k = y0; k <= y1; k++) d = Math.min(d, luma[(y + k) * S + x]);
      return d;
    };
    for (const ids of [
      [160, 159, 158],
      [387, 386, 385],
    ]) {
      const rest = ids.map((i) => darkest(sc.still, sc.model.base, i, -2, 2));
      const seam = ids.map((i) => darkest(closed, pos, i, -3, 0));
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
      // (Closed lids that ended in the skin above the lashes read 35–37 levels lighter here.)
      expect(mean(seam)).toBeLessThanOrEqual(mean(rest) + 20);
    }
  });
});

describe("blink timing", () => {
  it("closes in ≥ 80 ms and opens in ≥ 120 ms, the lid easing in and out (10–90 % of the travel ≥ 60 / 100 ms)", () => {
    expect(BLINK.close).toBeGreaterThanOrEqual(0.08);
    expect(BLINK.open).toBeGreaterThanOrEqual(0.12);
    const total = BLINK.close + BLINK.hold + BLINK.open;
    const first = (from: number, hit: (c: number) => boolean) => {
      for (let t = from; t <= total; t += 0.0005) if (hit(blinkAmount([0], t))) return t;
      return NaN;
    };
    const closing = first(0, (c) => c >= 0.9) - first(0, (c) => c >= 0.1);
    const reopen = BLINK.close + BLINK.hold;
    const opening = first(reopen, (c) => c <= 0.1) - first(reopen, (c) => c <= 0.9);
    expect(closing).toBeGreaterThanOrEqual(0.06);
    expect(opening).toBeGreaterThanOrEqual(0.1);
    expect(blinkAmount([0], BLINK.close + BLINK.hold / 2)).toBe(1);
  });
});
