/**
 * Her own teeth, always (issue 25, point 2). A portrait that shows its teeth at rest (the smiling woman of
 * group-four.jpg, as an Avatar) keeps showing them when the mouth opens: the brightest third of the mouth
 * interior stays ≥ 90 % as bright as in the photo. A portrait without visible teeth gets synthesised teeth
 * in its skin's hue under the light at its mouth, not a fixed grey (drawn-teeth.test.ts checks them painted).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mouthColors, NEUTRAL_POSE, type FacePose } from "@avatar-video/face-rig";
import { fillPolygon, interiorBrightThird } from "../../scripts/quality/metrics";
import { POSE_SIZE, type PosePainter } from "../../scripts/quality/paint-pose";
import { teethPainter } from "./helpers/teeth-portrait";

let painter: PosePainter;
beforeAll(async () => {
  painter = await teethPainter();
});
afterAll(() => painter?.close());

describe("a portrait showing its teeth", () => {
  const open: Array<[string, Partial<FacePose>]> = [
    ["open vowel", { open: 0.9, spread: 0.1, relax: 1 }],
    ["mid vowel", { open: 0.5, spread: 0.25, relax: 1 }],
    ["ee", { open: 0.25, spread: 1, relax: 1 }],
    ["oo", { open: 0.2, round: 1, relax: 1 }],
  ];
  it.each(open)("%s: the teeth stay the photo's (brightest third of the interior ≥ 90 % of the photo's)", (_, pose) => {
    const still = painter.paint(NEUTRAL_POSE);
    const photo = interiorBrightThird(still.rgb, POSE_SIZE, still.positions);
    const { rgb, positions } = painter.paint({ ...NEUTRAL_POSE, ...pose });
    expect(interiorBrightThird(rgb, POSE_SIZE, positions) / photo).toBeGreaterThanOrEqual(0.9);
  });
});

describe("m/b/p over her teeth", () => {
  // Teeth-white (bright, nearly grey) pixels where the lips meet: the middle of the mouth, from just above
  // the corner line to below the lips' meeting line, corner to corner.
  const white = (rgb: Buffer) => {
    const m = painter.model;
    const hw = m.mouth.halfWidth;
    let n = 0;
    for (let y = Math.round(m.mouth.oy - 0.1 * hw); y < m.mouth.oy + 0.5 * hw; y++)
      for (let x = Math.round(m.mouth.ox - hw); x < m.mouth.ox + hw; x++) {
        const o = (y * POSE_SIZE + x) * 3;
        const [r, g, b] = [rgb[o], rgb[o + 1], rgb[o + 2]];
        if (0.299 * r + 0.587 * g + 0.114 * b > 150 && Math.max(r, g, b) - Math.min(r, g, b) < 40) n++;
      }
    return n;
  };
  const press = (p: number) => white(painter.paint({ ...NEUTRAL_POSE, press: p, relax: 1 }).rgb);

  it("a full press shows no ghost of her teeth in the closed lips, and covers them as it grows", () => {
    const shown = press(0);
    expect(shown).toBeGreaterThan(500);
    expect(press(0.5)).toBeLessThan(0.5 * shown);
    expect(press(0.8)).toBeLessThan(0.05 * shown);
    expect(press(1)).toBeLessThan(0.03 * shown);
  });
});

describe("the side teeth at the image-left corner", () => {
  // Her lower lip rises steeply to that corner; stretching the side teeth's lowest row down to it as the
  // jaw drops drew a tall white wedge (a fang) below the others. The teeth there keep their own extent.
  it.each([0.4, 0.6, 0.9])("open %s: no more teeth-white there than with the lips at rest", (open) => {
    const m = painter.model;
    const hw = m.mouth.halfWidth;
    const white = (rgb: Buffer) => {
      let n = 0;
      for (let y = Math.round(m.mouth.oy - 0.6 * hw); y < m.mouth.oy + 0.8 * hw; y++)
        for (let x = Math.round(m.mouth.ox - hw); x < m.mouth.ox - 0.5 * hw; x++) {
          const o = (y * POSE_SIZE + x) * 3;
          if (0.299 * rgb[o] + 0.587 * rgb[o + 1] + 0.114 * rgb[o + 2] > 190) n++;
        }
      return n;
    };
    const pose = { ...NEUTRAL_POSE, spread: 0.1, relax: 1 };
    const shut = white(painter.paint(pose).rgb);
    expect(shut).toBeGreaterThan(50);
    expect(white(painter.paint({ ...pose, open }).rgb)).toBeLessThanOrEqual(1.05 * shut);
  });
});

describe("a smile that rounds (oo, w, o)", () => {
  it("purses: the lips close over the teeth at the sides and stay open in the middle", () => {
    const m = painter.model;
    const gaps = (pose: Partial<FacePose>) => {
      const p = painter.paint({ ...NEUTRAL_POSE, ...pose }).positions;
      const [ex, ey] = m.mouth.ey;
      return m.mouth.upperInner.map((up, k) => {
        const lo = m.mouth.lowerInner[k];
        return (p[lo * 2] - p[up * 2]) * ex + (p[lo * 2 + 1] - p[up * 2 + 1]) * ey;
      });
    };
    const rest = gaps({});
    const oo = gaps({ open: 0.2, round: 1, relax: 1 });
    const side = (k: number) => Math.abs(m.mu[m.mouth.upperInner[k]]) > 0.75 && rest[k] > 3;
    const sides = rest.map((_, k) => k).filter(side);
    expect(sides.length).toBeGreaterThanOrEqual(2);
    // Without pursing they open with the jaw (ratios above 1). A lip closes at most 0.24 half mouth widths,
    // so the blunt image-left end of this smile (rest gaps up to 0.55) stays a little apart.
    const ratios = sides.map((k) => oo[k] / rest[k]);
    for (const r of ratios) expect(r).toBeLessThan(0.7);
    expect(ratios.reduce((a, b) => a + b, 0) / ratios.length).toBeLessThan(0.6);
    const mid = m.mouth.upperInner.length >> 1;
    expect(oo[mid]).toBeGreaterThan(0.5 * rest[mid]);
  });
});

describe("synthesised teeth", () => {
  const skin: [number, number, number] = [190, 150, 120];
  const lip: [number, number, number] = [170, 90, 90];
  const lipLight: [number, number, number] = [230, 200, 195];
  it("take the skin's hue (never the eye whites' balance) and the light at the mouth", () => {
    const hue = ([r, g, b]: number[]) => (g - b) / (r - b); // 0 red … 1 yellow, for r ≥ g ≥ b
    const cool = mouthColors(skin, lip, { sclera: [200, 205, 220], lipLight }).teeth;
    const warm = mouthColors(skin, lip, { sclera: [225, 210, 190], lipLight }).teeth;
    for (const t of [cool, warm]) {
      expect(t[0]).toBeGreaterThan(t[1]);
      expect(t[1]).toBeGreaterThan(t[2]);
      expect(Math.abs(hue(t) - hue(skin))).toBeLessThan(0.03);
    }
    const luma = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    // Under a dim light at the mouth the same whites give darker teeth.
    const dim = mouthColors(skin, lip, { sclera: [225, 210, 190], lipLight: [150, 120, 115] }).teeth;
    expect(luma(dim)).toBeLessThan(luma(warm) - 20);
    expect(luma(dim)).toBeLessThanOrEqual(150 * 1.15 + 1);
  });
});

describe("the ends of a small opening over her teeth", () => {
  // The lower lip rises steeply to her image-left corner. At small openings her side teeth used to be
  // stretched down to it there: a light sliver left of (outside) the dark line the opening leaves along the
  // lip. Teeth-light pixels are counted just outside the inner-lip loop on the lower lip's side, near each
  // corner, against the brightness of the teeth at rest.
  const light = (rgb: Buffer, positions: Float32Array, side: -1 | 1, teeth: number) => {
    const m = painter.model;
    const pt = (i: number): [number, number] => [positions[i * 2], positions[i * 2 + 1]];
    const up = m.mouth.upperInner.map(pt);
    const lo = m.mouth.lowerInner.map(pt);
    const inside = new Uint8Array(POSE_SIZE * POSE_SIZE);
    fillPolygon(inside, POSE_SIZE, POSE_SIZE, [...up, ...[...lo].reverse()], 1);
    const dist = (x: number, y: number, line: Array<[number, number]>) => {
      let d = Infinity;
      for (let i = 1; i < line.length; i++) {
        const [ax, ay] = line[i - 1];
        const [bx, by] = line[i];
        const l2 = (bx - ax) ** 2 + (by - ay) ** 2 || 1;
        const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / l2));
        d = Math.min(d, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
      }
      return d;
    };
    const hw = m.mouth.halfWidth;
    const [ex, ey] = m.mouth.ex;
    let n = 0;
    for (let y = Math.round(m.mouth.oy - hw); y < m.mouth.oy + hw; y++)
      for (let x = Math.round(m.mouth.ox - 1.2 * hw); x < m.mouth.ox + 1.2 * hw; x++) {
        const u = ((x + 0.5 - m.mouth.ox) * ex + (y + 0.5 - m.mouth.oy) * ey) / hw;
        if (side * u < 0.55 || side * u > 0.85 || inside[y * POSE_SIZE + x]) continue;
        const dl = dist(x + 0.5, y + 0.5, lo);
        if (dl > 0.12 * hw || dl >= dist(x + 0.5, y + 0.5, up)) continue;
        const o = (y * POSE_SIZE + x) * 3;
        if (0.299 * rgb[o] + 0.587 * rgb[o + 1] + 0.114 * rgb[o + 2] > teeth) n++;
      }
    return n;
  };
  // Before: 25, 20, 14, 6 such pixels at the image-left end at 0.1, 0.15, 0.2, 0.25; now 2–3.
  it.each([0.1, 0.15, 0.2, 0.25])("open %s: no teeth-light sliver beside the lower lip at either end", (open) => {
    const still = painter.paint(NEUTRAL_POSE);
    // Teeth-light: 0.85 of the brightest third of her teeth at rest.
    const teeth = 0.85 * interiorBrightThird(still.rgb, POSE_SIZE, still.positions);
    const { rgb, positions } = painter.paint({ ...NEUTRAL_POSE, open, relax: 1 });
    const counts = ([-1, 1] as const).map((side) => light(rgb, positions, side, teeth));
    expect(counts[0]).toBeLessThanOrEqual(5);
    expect(counts[1]).toBeLessThanOrEqual(5);
  });
});
