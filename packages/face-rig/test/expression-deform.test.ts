/**
 * Expressions drawn by moving the face's own mesh (packages/face-rig/src/expression.ts, brow-field.ts,
 * eyelids.ts; docs/performance.md): each moves its landmarks the right way on a test portrait, speech still
 * moves the mouth on top, a blink still closes the eye, and no expression leaves the photo's face moved.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { buildFaceModel, deform, type FaceModel, type FacePose, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { NO_EXPRESSION } from "@avatar-video/motion-model";
import { testAvatar } from "../../../test/renderer/helpers/media-avatar";

let m: FaceModel;
/** The same face with its lips parted, the lower inner row shifted along the mouth too (a broad smile's). */
let parted: FaceModel;
const LOWER = [
  [95, 88, 178, 87, 14, 317, 402, 318, 324],
  [96, 89, 179, 86, 15, 316, 403, 319, 325],
];
const UPPER_INNER = [191, 80, 81, 82, 13, 312, 311, 310, 415];
beforeAll(async () => {
  const a = await testAvatar("single-phone");
  const place = { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0, clip: { x0: 0, y0: 0, x1: 4000, y1: 4000 } };
  m = buildFaceModel(a.rig, place);
  const landmarks = a.rig.landmarks.map((p) => [...p] as [number, number, number]);
  const hw = m.mouth.halfWidth;
  LOWER.forEach((row, depth) =>
    row.forEach((i, k) => {
      const side = (k - 4) / 4; // −1 … 1 from corner to corner
      landmarks[i][0] += 0.08 * hw * Math.sign(side) * (1 - depth * 0.3);
      landmarks[i][1] += 0.3 * hw * (1 - side * side) + 0.05 * hw;
    }),
  );
  parted = buildFaceModel({ ...a.rig, landmarks }, place);
});

const at = (pose: Partial<FacePose>) => deform(m, { ...NEUTRAL_POSE, ...pose }, new Float32Array(m.count * 2));
const express = (name: keyof typeof NO_EXPRESSION, k = 0.6, pose: Partial<FacePose> = {}) =>
  at({ ...pose, expression: { ...NO_EXPRESSION, [name]: k } });

/** What the quality script reads from a video, on mesh positions: mouth corners, brows, eye openings. */
function read(xy: Float32Array) {
  const Y = (i: number) => xy[i * 2 + 1];
  // The eye distance: between the eyes' centres (as scripts/quality/face-reading.ts reads it).
  const B = (i: number, k: number) => m.base[i * 2 + k];
  const io = Math.hypot(
    (B(263, 0) + B(362, 0) - B(33, 0) - B(133, 0)) / 2,
    (B(263, 1) + B(362, 1) - B(33, 1) - B(133, 1)) / 2,
  );
  const mouthW = Math.hypot(m.base[291 * 2] - m.base[61 * 2], m.base[291 * 2 + 1] - m.base[61 * 2 + 1]);
  const centre = (Y(13) + Y(14)) / 2;
  return {
    /** Corners above the lips' middle, × mouth width (up = positive). */
    corners: (centre - (Y(61) + Y(291)) / 2) / mouthW,
    /** Brows above the eyes' corner lines, × the eye distance. */
    brows: ((Y(33) + Y(133)) / 2 - Y(105) + ((Y(263) + Y(362)) / 2 - Y(334))) / 2 / io,
    /** Inner brow ends above the outer ones, × the eye distance. */
    innerBrows: (Y(70) - Y(107) + (Y(300) - Y(336))) / 2 / io,
    /** Eye openings (upper to lower lid), × the eye distance. */
    eyes: (Y(145) - Y(159) + (Y(374) - Y(386))) / 2 / io,
  };
}

describe("expressions on the mesh", () => {
  it("no expression (absent or all 0) is the photo's own face, bit for bit", () => {
    expect(at({ expression: { ...NO_EXPRESSION } })).toEqual(at({}));
    expect(at({ open: 0.5, blinkL: 0.3, expression: NO_EXPRESSION })).toEqual(at({ open: 0.5, blinkL: 0.3 }));
  });

  it("each expression moves its landmarks the right way by a visible margin", () => {
    const n = read(at({}));
    const happy = read(express("happy"));
    const serious = read(express("serious"));
    const surprised = read(express("surprised"));
    const sad = read(express("sad"));
    expect(happy.corners - n.corners).toBeGreaterThan(0.02); // corners up ≥ 2 % of the mouth width
    expect(happy.eyes - n.eyes).toBeLessThan(-0.003); // the eyes narrow a little
    expect(serious.corners - n.corners).toBeLessThan(-0.02); // this photo smiles: its corners come down
    expect(serious.brows - n.brows).toBeLessThan(-0.01);
    expect(surprised.brows - n.brows).toBeGreaterThan(0.03); // brows up ≥ 3 % of the eye distance
    expect(surprised.eyes - n.eyes).toBeGreaterThan(0.005);
    expect(sad.corners - n.corners).toBeLessThan(-0.02);
    expect(sad.innerBrows - n.innerBrows).toBeGreaterThan(0.02);
  });

  it("grows with intensity and blends smoothly between expressions", () => {
    const n = read(at({})).corners;
    const lift = [0.2, 0.4, 0.6, 0.8, 1].map((k) => read(express("happy", k)).corners - n);
    for (let i = 1; i < lift.length; i++) expect(lift[i]).toBeGreaterThan(lift[i - 1]);
    const half = read(at({ expression: { ...NO_EXPRESSION, happy: 0.3, sad: 0.3 } })).corners - n;
    expect(half).toBeGreaterThan(read(express("sad")).corners - n);
    expect(half).toBeLessThan(read(express("happy")).corners - n);
  });

  it("speech still opens the mouth on top, and a blink still closes the eye", () => {
    const rest = express("serious", 1);
    const word = express("serious", 1, { open: 0.8 });
    expect(word[14 * 2 + 1] - rest[14 * 2 + 1]).toBeGreaterThan(0.3 * m.mouth.halfWidth);
    for (const name of ["happy", "surprised", "sad"] as const) {
      const shut = express(name, 1, { blinkR: 1, blinkL: 1 });
      // The lids meet: upper and lower lid middles within a pixel.
      expect(Math.abs(shut[159 * 2 + 1] - shut[145 * 2 + 1]), name).toBeLessThan(1.5);
    }
  });

  it("an expression closing parted lips brings each inner-lip pair together, across and along the mouth", () => {
    const serious = deform(
      parted,
      { ...NEUTRAL_POSE, expression: { ...NO_EXPRESSION, serious: 0.6 } },
      new Float32Array(parted.count * 2),
    );
    const gap = (xy: Float32Array, k: number) => {
      const [u, l] = [UPPER_INNER[k], LOWER[0][k]];
      return Math.hypot(xy[u * 2] - xy[l * 2], xy[u * 2 + 1] - xy[l * 2 + 1]);
    };
    for (let k = 0; k < UPPER_INNER.length; k++) {
      expect(gap(parted.base, k), `rest ${k}`).toBeGreaterThan(2);
      expect(gap(serious, k), `serious ${k}`).toBeLessThan(0.4 * gap(parted.base, k));
    }
    // Speaking, the held lips part again: a vowel's opening is more than the jaw's alone.
    const vowel = { ...NEUTRAL_POSE, open: 0.55, expression: { ...NO_EXPRESSION, serious: 0.6 } };
    const jawOnly = { ...vowel, expression: { ...NO_EXPRESSION, serious: 0.6 }, open: 0 };
    const opening = (pose: FacePose) => {
      const xy = deform(parted, pose, new Float32Array(parted.count * 2));
      return xy[14 * 2 + 1] - xy[13 * 2 + 1];
    };
    expect(opening(vowel) - opening(jawOnly)).toBeGreaterThan(
      opening({ ...NEUTRAL_POSE, open: 0.55, press: 1 }) - opening({ ...NEUTRAL_POSE, press: 1 }) + 0.5,
    );
  });

  it("moves nothing far from the face: the outline and the anchor rings stay", () => {
    for (const name of ["happy", "serious", "surprised", "sad"] as const) {
      const xy = express(name, 1);
      for (const i of [10, 152, 234, 454]) {
        expect(Math.abs(xy[i * 2] - m.base[i * 2]), `${name} ${i}`).toBeLessThan(0.5);
        expect(Math.abs(xy[i * 2 + 1] - m.base[i * 2 + 1]), `${name} ${i}`).toBeLessThan(0.5);
      }
      for (let i = 468; i < 468 + 40; i++) expect(xy[i * 2]).toBe(m.base[i * 2]);
    }
  });
});
