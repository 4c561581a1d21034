/**
 * The matte's building blocks without the model: the guided filter snaps a coarse mask to the photo's own
 * edge, and the foreground colours under a matte lose the old backdrop (mixed edge pixels and the spill
 * just inside the outline) while the opaque interior stays the photo.
 */
import { describe, expect, it } from "vitest";
import { boxMean, matteForeground } from "@avatar-video/face-rig";
import { applyGuided, guidedCoefficients, type Planes } from "../../container/src/analysis/public";

describe("guided filter", () => {
  it("a soft mask 2 px off comes out with its step at the photo's edge, as sharp as the photo", () => {
    const W = 128;
    const edge = 70; // the photo: dark person left of x = 70, light backdrop right of it
    const rgb = new Uint8Array(W * W * 3);
    for (let i = 0; i < W * W; i++) rgb.fill(i % W < edge ? 40 : 220, i * 3, i * 3 + 3);
    // The model's guess on a 32² grid (4 px cells): centred 2 px right of the edge, ramping over 12 px.
    const G = 32;
    const mask = Float32Array.from({ length: G * G }, (_, i) =>
      Math.min(1, Math.max(0, (edge + 2 - ((i % G) * 4 + 2)) / 12 + 0.5)),
    );
    const guide = [0, 1, 2].map(() =>
      Float32Array.from({ length: G * G }, (_, i) => ((i % G) * 4 + 2 < edge ? 40 : 220) / 255),
    ) as Planes;
    const q = applyGuided(guidedCoefficients(guide, mask, G, G, 2, 1e-3), rgb, W, W);
    const row = Array.from(q.subarray(64 * W, 65 * W));
    const steps = row.slice(1).map((v, x) => row[x] - v);
    expect(steps.indexOf(Math.max(...steps)) + 1).toBe(edge);
    expect(Math.max(...steps)).toBeGreaterThan(0.4);
    expect(row[edge - 6]).toBeGreaterThan(0.95);
    expect(row[edge + 12]).toBeLessThan(0.15);
  });
});

describe("foreground colours under a matte", () => {
  const W = 512;
  // Red person on the left, blue backdrop on the right, mixed over a 12 px ramp; alpha is the mix.
  const at = (x: number) => Math.min(1, Math.max(0, (160 - x) / 12));
  const alpha = Uint8Array.from({ length: W * W }, (_, i) => Math.round(255 * at(i % W)));
  const photo = new Uint8Array(W * W * 3);
  for (let i = 0; i < W * W; i++) {
    const a = alpha[i] / 255;
    [photo[i * 3], photo[i * 3 + 1], photo[i * 3 + 2]] = [
      Math.round(200 * a + 20 * (1 - a)),
      40,
      Math.round(40 * a + 220 * (1 - a)),
    ];
  }

  it("the mixed pixels get the person's colour back (within 8 % once composited), the interior is the photo", () => {
    const fg = matteForeground(photo, alpha, W, W);
    // On a new background the edge is what the red person alone would give, not a blue rim.
    for (let x = 148; x < 160; x++) {
      const i = 128 * W + x;
      const a = alpha[i] / 255;
      for (const c of [0, 2])
        expect(
          Math.abs(a * fg[i * 3 + c] - a * [200, 40, 40][c]),
          `x ${x} channel ${c}: ${fg.subarray(i * 3, i * 3 + 3)}`,
        ).toBeLessThan(20);
    }
    for (let x = 0; x < 120; x++)
      expect([...fg.subarray((128 * W + x) * 3, (128 * W + x) * 3 + 3)]).toEqual([200, 40, 40]);
  });

  it("an opaque rim with the backdrop's hue (chroma bleed) takes the interior's hue", () => {
    const hard = Uint8Array.from({ length: W * W }, (_, i) => (i % W < 160 ? 255 : 0));
    const bled = new Uint8Array(W * W * 3);
    for (let i = 0; i < W * W; i++) {
      const x = i % W;
      const colour = x >= 160 ? [20, 40, 220] : x >= 158 ? [120, 40, 150] : [200, 40, 40]; // red person, a 2 px purple rim
      bled.set(colour, i * 3);
    }
    const fg = matteForeground(bled, hard, W, W);
    for (let x = 158; x < 160; x++) {
      const i = (128 * W + x) * 3;
      expect(fg[i], `x ${x}: ${fg.subarray(i, i + 3)}`).toBeGreaterThan(fg[i + 2] + 60); // red again, not purple
    }
    expect([...fg.subarray((128 * W + 100) * 3, (128 * W + 100) * 3 + 3)]).toEqual([200, 40, 40]);
  });

  it("a blurred edge whose matte sits 3 px out leaves no rim of the backdrop's brightness or hue", () => {
    // Dark blue-grey hair before a light orange wall; the photo blends them over 10 px, the matte 3 px further out.
    const person = [50, 60, 80];
    const wall = [230, 200, 120];
    const share = (x: number, edge: number) => Math.min(1, Math.max(0, (edge - x) / 10));
    const offAlpha = Uint8Array.from({ length: W * W }, (_, i) => Math.round(255 * share(i % W, 169)));
    const blurred = new Uint8Array(W * W * 3);
    for (let i = 0; i < W * W; i++) {
      const s = share(i % W, 166);
      for (let c = 0; c < 3; c++) blurred[i * 3 + c] = Math.round(person[c] * s + wall[c] * (1 - s));
    }
    const fg = matteForeground(blurred, offAlpha, W, W);
    for (let x = 140; x < 180; x++) {
      const i = 128 * W + x;
      if (offAlpha[i] === 0) continue;
      const [r, g, b] = fg.subarray(i * 3, i * 3 + 3);
      const seen = `x ${x} (alpha ${offAlpha[i]}): ${[r, g, b]}`;
      expect(Math.max(r - person[0], g - person[1], b - person[2]), seen).toBeLessThan(20); // no lighter rim
      expect(b, seen).toBeGreaterThanOrEqual(r); // no orange rim
    }
  });
});

describe("box mean", () => {
  it("is the mean over the part of the box inside the image", () => {
    const src = Float32Array.from({ length: 25 }, (_, i) => i);
    const m = boxMean(src, 5, 5, 1);
    expect(m[12]).toBeCloseTo((6 + 7 + 8 + 11 + 12 + 13 + 16 + 17 + 18) / 9, 5);
    expect(m[0]).toBeCloseTo((0 + 1 + 5 + 6) / 4, 5);
  });
});
