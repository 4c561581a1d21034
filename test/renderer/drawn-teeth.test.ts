/**
 * Drawn teeth read as a person's teeth, not a denture grille (docs/animation.md, "Teeth are teeth"), on
 * the painted pixels of a portrait whose lips are closed at rest (single-phone.jpg as an Avatar), mid vowel:
 * the separations between teeth are faint shadows, the row darkens towards the corners, and the tooth
 * colour has the skin's hue (lit like the face), never greener.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIPS_LOWER_INNER, LIPS_UPPER_INNER } from "../../packages/face-rig/src/facemesh-topology";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { createAvatarAssets } from "../../container/src/avatar/public";
import { POSE_SIZE, posePainter, type PosePainter } from "../../scripts/quality/paint-pose";
import { fixture } from "../fixtures/portraits/derive";

const S = POSE_SIZE;
type Rgb = [number, number, number];
const luma = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/** HSV hue in degrees (0 red, 60 yellow, 120 green). */
function hue([r, g, b]: Rgb): number {
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? (g - b) / d : max === g ? 2 + (b - r) / d : 4 + (r - g) / d;
  return (60 * h + 360) % 360;
}

/** y of a polyline (flat x, y canvas points) at column x, by linear interpolation. */
function yAt(p: Array<[number, number]>, x: number): number | undefined {
  for (let i = 1; i < p.length; i++) {
    const [x0, y0] = p[i - 1];
    const [x1, y1] = p[i];
    if ((x - x0) * (x - x1) <= 0 && x0 !== x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return undefined;
}

let painter: PosePainter;
let skin: Rgb;
/** Per column across the opening (u = share of the half mouth width): the brightest pixel between the inner lips. */
let row: Array<{ u: number; c: Rgb }>;

beforeAll(async () => {
  const a = await createAvatarAssets(await sharp(fixture("single-phone")).jpeg({ quality: 92 }).toBuffer());
  painter = await posePainter(a.portraitPng, a.rig);
  const { rgb, positions } = painter.paint({ ...NEUTRAL_POSE, open: 0.55, spread: 0.1, relax: 1 });
  const px = (x: number, y: number): Rgb => {
    const o = (Math.round(y) * S + Math.round(x)) * 3;
    return [rgb[o], rgb[o + 1], rgb[o + 2]];
  };
  const pts = (idx: readonly number[]) => idx.map((i) => [positions[i * 2], positions[i * 2 + 1]] as [number, number]);
  const up = pts(LIPS_UPPER_INNER);
  const lo = pts(LIPS_LOWER_INNER);
  const m = painter.model.mouth;
  row = [];
  for (let x = Math.ceil(Math.min(up[0][0], up[up.length - 1][0])); x < Math.max(up[0][0], up[up.length - 1][0]); x++) {
    const y0 = yAt(up, x);
    const y1 = yAt(lo, x);
    if (y0 === undefined || y1 === undefined || y1 - y0 < 3) continue;
    let best: Rgb = [0, 0, 0];
    for (let y = Math.ceil(y0); y <= y1; y++) if (luma(px(x, y)) > luma(best)) best = px(x, y);
    row.push({ u: (x - m.ox) / m.halfWidth, c: best });
  }
  // The skin: 5×5 px on both cheeks (FaceMesh 205 and 425, where the mouth colours sample it), in this frame.
  const box: Rgb[] = [];
  for (const i of [205, 425])
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) box.push(px(positions[i * 2] + dx, positions[i * 2 + 1] + dy));
  skin = [0, 1, 2].map((k) => box.reduce((s, c) => s + c[k], 0) / box.length) as Rgb;
});
afterAll(() => painter?.close());

describe("drawn teeth on a portrait with closed lips", () => {
  it("separate the teeth by faint shadows, not dark lines", () => {
    // Every column in the middle of the row against the brightest within 6 px on each side (the lower of
    // the two, so the fall towards the corners is no dip): a separation drawn as a line dips far below
    // the teeth beside it.
    const mid = row.map((r, i) => ({ ...r, i })).filter((r) => Math.abs(r.u) < 0.5);
    expect(mid.length).toBeGreaterThan(40);
    const l = row.map((r) => luma(r.c));
    const dips = mid.map(
      (r) => l[r.i] / Math.min(Math.max(...l.slice(r.i - 6, r.i)), Math.max(...l.slice(r.i + 1, r.i + 7))),
    );
    console.log(`separation dips: deepest ${Math.min(...dips).toFixed(2)}`);
    expect(Math.min(...dips)).toBeGreaterThan(0.8);
  });

  it("darken towards the corners of the mouth (its shadow), brightest at the middle", () => {
    const mean = (a: number, b: number) => {
      const l = row.filter((r) => Math.abs(r.u) >= a && Math.abs(r.u) < b).map((r) => luma(r.c));
      return l.reduce((s, v) => s + v, 0) / l.length;
    };
    const centre = mean(0, 0.2);
    console.log(
      `row luma: centre ${centre.toFixed(0)}, 0.3–0.45 ${mean(0.3, 0.45).toFixed(0)}, 0.55–0.7 ${mean(0.55, 0.7).toFixed(0)}`,
    );
    expect(mean(0.55, 0.7) / centre).toBeLessThan(0.85);
    expect(mean(0.3, 0.45) / centre).toBeLessThan(0.97);
  });

  it("take the skin's hue, warm and never greener, lit like the face", () => {
    const centre = row.filter((r) => Math.abs(r.u) < 0.2).map((r) => r.c);
    const teeth = [0, 1, 2].map((i) => centre.reduce((s, c) => s + c[i], 0) / centre.length) as Rgb;
    expect(teeth[0]).toBeGreaterThan(teeth[1]);
    expect(teeth[1]).toBeGreaterThan(teeth[2]);
    console.log(
      `teeth ${teeth.map(Math.round)} hue ${hue(teeth).toFixed(1)}, skin ${skin.map(Math.round)} hue ${hue(skin).toFixed(1)}`,
    );
    // Hue: the old white balance from the eye whites put it towards green of the skin's (grey-green).
    expect(hue(teeth)).toBeLessThanOrEqual(hue(skin));
    expect(luma(teeth)).toBeGreaterThan(0.9 * luma(skin));
  });
});
