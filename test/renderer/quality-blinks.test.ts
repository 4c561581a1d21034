import { describe, expect, it } from "vitest";
import { perEyeBlinkEvents, PER_EYE_BLINKS } from "../../scripts/quality/metrics";

// The blink counter of scripts/quality.ts on synthetic per-eye openings (eye-corner units, 25 fps).
// Calibration on rendered clips: docs/animation.md, "Why blinks are counted per eye", "Why blinks are read by both meshes".
const FPS = 25;
const N = 300;
const OPEN_R = 0.12;
const OPEN_L = 0.11;

/** Open eyes with a small deterministic wobble (the detector is never perfectly still). */
function openEyes(): { r: number[]; l: number[] } {
  const wobble = (i: number, k: number) => 1 + 0.03 * Math.sin(i * 0.7 + k) * Math.cos(i * 0.23);
  return {
    r: Array.from({ length: N }, (_, i) => OPEN_R * wobble(i, 0)),
    l: Array.from({ length: N }, (_, i) => OPEN_L * wobble(i, 2)),
  };
}

/** Multiply `eye` from frame `at` by a closing profile (fractions of open). */
function dip(eye: number[], at: number, profile: number[]): void {
  profile.forEach((f, k) => (eye[at + k] *= f));
}

// A blink as FaceMesh reads it on the rendered clips: the iris-refined eye drops to ≈ 0.4 of open for
// a few frames; the mesh-only eye of a turned head barely moves (≈ 0.8).
const REFINED = [0.75, 0.4, 0.6, 0.5, 0.75];
const MESH_ONLY = [0.9, 0.8, 0.78, 0.8, 0.9];

describe("per-eye blink counting (scripts/quality/metrics.ts)", () => {
  it("counts a blink seen by one eye only (the average of both eyes stays above 0.55 of open)", () => {
    const { r, l } = openEyes();
    dip(l, 100, REFINED);
    dip(r, 100, MESH_ONLY);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[100, 105]]);
  });

  it("counts overlapping dips of the two eyes as one blink", () => {
    const { r, l } = openEyes();
    dip(r, 100, REFINED);
    dip(l, 102, REFINED);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[100, 107]]);
  });

  it("keeps the two halves of a double blink (0.36 s apart, eyes open in between) apart", () => {
    const { r, l } = openEyes();
    dip(l, 100, REFINED);
    dip(l, 109, REFINED);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([
      [100, 105],
      [109, 114],
    ]);
  });

  it("wobble inside one blink (0.38 → 0.69 → 0.51 of open) is still one blink", () => {
    const { r, l } = openEyes();
    dip(l, 100, [0.38, 0.64, 0.69, 0.51, 0.75]);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[100, 105]]);
  });

  it("does not count a head turn that narrows both eyes to half and stays; a blink after it still counts", () => {
    const { r, l } = openEyes();
    for (let i = 150; i < N; i++) {
      const f = i < 175 ? 1 - (0.5 * (i - 150)) / 25 : 0.5;
      r[i] *= f;
      l[i] *= f;
    }
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([]);
    // Measured against the median of the whole clip, the turned eyes would look closed from frame ~170 on
    // and this blink would drown in one long "closure"; the rolling median sees it.
    dip(l, 240, REFINED);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[240, 245]]);
  });

  it("does not count a slow turn and back (one eye at 0.55 for 1 s, 1.5 s ramps)", () => {
    const { r, l } = openEyes();
    for (let i = 100; i < 200; i++) {
      const t = i - 100;
      l[i] *= t < 37 ? 1 - (0.45 * t) / 37 : t < 63 ? 0.55 : 1 - (0.45 * (100 - t)) / 37;
    }
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([]);
  });

  it(`does not count a closure longer than ${PER_EYE_BLINKS.maxSeconds} s (a pose change, not a blink)`, () => {
    const { r, l } = openEyes();
    for (let i = 100; i < 118; i++) l[i] *= 0.4;
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([]);
  });

  it(`does not count a 1-frame glitch (a blink lasts at least ${PER_EYE_BLINKS.minFrames} frames below ${PER_EYE_BLINKS.soft} of open)`, () => {
    const { r, l } = openEyes();
    r[100] *= 0.3;
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([]);
    r[101] *= 0.5;
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[100, 102]]);
  });

  it("ignores frames without a face (NaN) and does not count them as closed", () => {
    const { r, l } = openEyes();
    for (let i = 50; i < 60; i++) r[i] = l[i] = Number.NaN;
    dip(l, 150, REFINED);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([[150, 155]]);
  });

  it("does not count a shallow dip of both eyes to 0.8 of open (squint, not a blink)", () => {
    const { r, l } = openEyes();
    dip(r, 100, [0.9, 0.82, 0.8, 0.82, 0.9]);
    dip(l, 100, [0.9, 0.82, 0.8, 0.82, 0.9]);
    expect(perEyeBlinkEvents([r, l], FPS)).toEqual([]);
  });

  it("counts a blink that one detector reads and the other misses (a closed lid behind glasses rims)", () => {
    const refined = openEyes();
    const human = openEyes();
    dip(refined.r, 100, REFINED);
    dip(refined.l, 100, REFINED);
    dip(human.r, 100, MESH_ONLY);
    dip(human.l, 100, MESH_ONLY);
    expect(perEyeBlinkEvents([human.r, human.l], FPS)).toEqual([]);
    expect(perEyeBlinkEvents([refined.r, refined.l, human.r, human.l], FPS)).toEqual([[100, 105]]);
  });

  it("reads the other detector where one loses the face", () => {
    const refined = openEyes();
    const human = openEyes();
    dip(human.r, 100, REFINED);
    for (let i = 98; i < 108; i++) refined.r[i] = refined.l[i] = NaN;
    expect(perEyeBlinkEvents([refined.r, refined.l, human.r, human.l], FPS)).toEqual([[100, 105]]);
  });
});
