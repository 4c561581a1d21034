/**
 * The mouth interior and framing rules of docs/animation.md, checked on synthetic inputs (no render):
 * nothing is drawn at rest, nothing past the lip corners, no edge sharper than the photo's own blur,
 * natural blink timing, and 16:9 crops that keep the whole head with headroom.
 */
import { describe, expect, it } from "vitest";
import { BLINK, blinkAmount } from "@avatar-video/motion-model";
import { drawMouthInterior, placePortrait, yuvLayout } from "../../container/src/paint/public";
import { teethBelowLip } from "../../packages/face-rig/src/lip-edge";
import { restMouth } from "../../packages/face-rig/src/mouth-style";
import type { MouthStyle } from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";

const W = 200;
const H = 120;
const L = yuvLayout(W, H);
const clip = { x0: 0, y0: 0, x1: W, y1: H };

/** Inner-lip curves: corners at x 60 and 140, y 60; the lips part by `gap` px in the middle. */
function lips(gap: number): { upper: Float32Array; lower: Float32Array } {
  const n = 11;
  const upper = new Float32Array(n * 2);
  const lower = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    const x = 60 + (80 * i) / (n - 1);
    const bulge = 1 - ((x - 100) / 40) ** 2;
    upper[i * 2] = x;
    upper[i * 2 + 1] = 60 - 0.35 * gap * bulge;
    lower[i * 2] = x;
    lower[i * 2 + 1] = 60 + 0.65 * gap * bulge;
  }
  return { upper, lower };
}

function style(blur: number, restGap = 0): MouthStyle {
  const { upper, lower } = lips(restGap);
  return {
    teeth: [210, 200, 185],
    cavityEdge: [90, 35, 35],
    cavityDeep: [30, 12, 14],
    tongue: [160, 80, 80],
    blur,
    grain: 0,
    light: 0,
    rest: restMouth(upper, lower, new Uint8Array(L.frameSize).fill(150)),
    ownTeeth: false,
    teethBelowLip: new Float64Array(257),
  };
}

const frameOf = () => new Uint8Array(L.frameSize).fill(150);

/** A photo smiling with its teeth: luma 230 inside lips(gap), 90 (lips) around, edges blurred by σ. */
function smilePhoto(gap: number, sigma: number): Uint8Array {
  const stat = frameOf();
  const phi = (z: number) => 1 / (1 + Math.exp(-1.702 * z)); // ≈ the normal CDF
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const b = Math.max(0, 1 - ((x - 100) / 40) ** 2);
      const d = Math.min(y + 0.5 - (60 - 0.35 * gap * b), 60 + 0.65 * gap * b - (y + 0.5));
      stat[y * W + x] = Math.round(90 + 140 * phi(d / sigma));
    }
  }
  return stat;
}

/** The style of a photo smiling with its teeth (its interior is reused), and that photo. */
function smilingStyle(gap: number, sigma: number): { stat: Uint8Array; st: MouthStyle } {
  const stat = smilePhoto(gap, sigma);
  const { upper, lower } = lips(gap);
  const rest = restMouth(upper, lower, stat);
  return { stat, st: { ...style(sigma, gap), rest, ownTeeth: true } };
}

describe("mouth interior", () => {
  it("draws nothing at rest, also for a photo whose lips are parted", () => {
    for (const g of [0, 8]) {
      const f = frameOf();
      const { upper, lower } = lips(g);
      const r = drawMouthInterior(f, L, upper, lower, 0, style(1.5, g), clip);
      expect(r.x1 - r.x0).toBe(0);
      expect(f.every((v) => v === 150)).toBe(true);
    }
  });

  it("stays between the lip corners and is no sharper than the photo", () => {
    for (const blur of [1, 2.5]) {
      const f = frameOf();
      const { upper, lower } = lips(24);
      drawMouthInterior(f, L, upper, lower, 0.8, style(blur), clip);
      let changed = 0;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          if (f[y * W + x] === 150) continue;
          changed++;
          expect(x).toBeGreaterThanOrEqual(60);
          expect(x).toBeLessThan(140);
        }
      }
      expect(changed).toBeGreaterThan(300);
      // Steepest luma step down the middle column vs a Gaussian-blurred step of the same height.
      let maxStep = 0;
      let lo = 255;
      for (let y = 30; y < 90; y++) {
        maxStep = Math.max(maxStep, Math.abs(f[(y + 1) * W + 100] - f[y * W + 100]));
        lo = Math.min(lo, f[y * W + 100]);
      }
      const gaussianPeak = (150 - lo) / (blur * Math.sqrt(2 * Math.PI));
      expect(maxStep).toBeLessThanOrEqual(Math.ceil(gaussianPeak * 1.1) + 1);
    }
  });

  it("seals a smiling photo's lips on M/B/P with the lower lip's colour, not a sliver of its teeth", () => {
    const g = 14;
    const { stat, st } = smilingStyle(g, 1.2);
    // Pressed: the lips are 2 px apart; what the warp leaves between them is squeezed teeth (bright).
    const f = Uint8Array.from(stat);
    const { upper, lower } = lips(2);
    for (let y = 59; y <= 61; y++) for (let x = 90; x <= 110; x++) f[y * W + x] = 230;
    const r = drawMouthInterior(f, L, upper, lower, 0, st, clip);
    expect(r.x1 - r.x0).toBeGreaterThan(0);
    // The lower lip's luma (90, a little darker where the lips meet), never the teeth's 230.
    for (let y = 59; y <= 61; y++) for (let x = 90; x <= 110; x++) expect(f[y * W + x]).toBeLessThan(110);
  });

  it("meets a smiling photo's fully pressed lips in a soft dark line of lip colour, no teeth between", () => {
    const g = 14;
    const sigma = 1.5;
    const { stat, st } = smilingStyle(g, sigma);
    // Pressed all the way: the warp brought the lips (90) together, leaving a 1 px streak of squeezed teeth.
    const f = Uint8Array.from(stat);
    for (let y = 40; y < 80; y++) for (let x = 70; x <= 130; x++) f[y * W + x] = 90;
    const { upper, lower } = lips(0);
    for (let x = 80; x <= 120; x++) f[60 * W + x] = 230;
    drawMouthInterior(f, L, upper, lower, 0, st, clip);
    const col = (y: number) => f[y * W + 100];
    // The line: darker than the lip (90) where they meet, never the teeth's brightness; lip again 4σ away.
    expect(Math.min(col(59), col(60))).toBeLessThan(80);
    expect(Math.min(col(59), col(60))).toBeGreaterThan(50);
    for (let y = 55; y <= 65; y++) expect(col(y), `y ${y}`).toBeLessThan(95);
    expect(Math.abs(col(54) - 90)).toBeLessThanOrEqual(3);
    // As soft as the photo: no steeper than a line blurred by σ (a Gaussian of σ peaks in slope at depth × 0.607 / σ).
    const depth = 90 - Math.min(col(59), col(60));
    let maxStep = 0;
    for (let y = 52; y < 68; y++) maxStep = Math.max(maxStep, Math.abs(col(y + 1) - col(y)));
    expect(maxStep).toBeLessThanOrEqual(Math.ceil((depth * 0.607) / sigma) + 1);
  });

  it("ends a smiling photo's own teeth as softly as the photo where the opening grows below them", () => {
    const g = 14;
    for (const blur of [1, 2.5]) {
      const { stat, st } = smilingStyle(g, blur);
      // The warp has moved the lower lip down: below the teeth the frame still shows lip (90).
      const f = Uint8Array.from(stat);
      const { upper, lower } = lips(40);
      drawMouthInterior(f, L, upper, lower, 0.8, st, clip);
      let maxStep = 0;
      for (let y = 52; y < 100; y++) maxStep = Math.max(maxStep, Math.abs(f[(y + 1) * W + 100] - f[y * W + 100]));
      const lo = Math.min(...Array.from({ length: 70 }, (_, k) => f[(30 + k) * W + 100]));
      const gaussianPeak = (230 - lo) / (blur * Math.sqrt(2 * Math.PI));
      expect(maxStep).toBeLessThanOrEqual(Math.ceil(gaussianPeak * 1.1) + 1);
    }
  });

  it("draws lower teeth above the lower lip on a wide opening: lit edges, soft gaps between them", () => {
    const f = frameOf();
    const { upper, lower } = lips(40);
    drawMouthInterior(f, L, upper, lower, 0.9, style(1.2), clip);
    const lum = (x: number, y: number) => f[y * W + x];
    // The lower lip's inner edge at the middle is y 86; the teeth stand above it, the cavity above them.
    const teeth = lum(104, 83);
    expect(teeth).toBeGreaterThan(120);
    expect(teeth - lum(104, 74)).toBeGreaterThan(50);
    // The gap between the central incisors (x 100) is darker than a tooth's middle, a faint shadow, not a line.
    expect(lum(100, 83)).toBeLessThan(teeth - 2);
    expect(lum(100, 83)).toBeGreaterThan(0.85 * teeth);
  });

  it("covers a smiling photo's side teeth near the lip corners on a wide opening (no stretched streaks)", () => {
    const g = 14;
    const { stat, st } = smilingStyle(g, 1.2);
    // The warp stretched the photo's side teeth (230) down the opening's ends, at |u| 0.8 (x 68 and 132).
    const f = Uint8Array.from(stat);
    const { upper, lower } = lips(40);
    for (let y = 50; y <= 80; y++) for (const x of [67, 68, 69, 131, 132, 133]) f[y * W + x] = 230;
    drawMouthInterior(f, L, upper, lower, 0.8, st, clip);
    const clean = Uint8Array.from(stat);
    drawMouthInterior(clean, L, upper, lower, 0.8, st, clip);
    // Half way down the opening there the interior covers them fully: the same pixel as over the photo
    // without them (a fade from 0.7 leaves a third of the streak). Near the corners that pixel is the photo's
    // own side teeth reaching down to the lower lip, not a thin dark strip of cavity along it.
    const bulge = 1 - (32 / 40) ** 2;
    const y = Math.round(60 + 0.15 * 40 * bulge);
    for (const x of [68, 132]) expect(Math.abs(f[y * W + x] - clean[y * W + x]), `x ${x}`).toBeLessThanOrEqual(1);
  });
});

describe("blinks", () => {
  it("finds where a smiling photo's teeth reach below the mesh's lower inner lip", () => {
    const g = 14;
    const stat = smilePhoto(g, 1.2);
    // Left of the middle the teeth reach 6 px further down than the lower inner-lip curve says.
    for (let y = 0; y < H; y++)
      for (let x = 60; x < 95; x++) {
        const b = Math.max(0, 1 - ((x - 100) / 40) ** 2);
        const d = y + 0.5 - (60 + 0.65 * g * b);
        if (d > -2 && d < 6) stat[y * W + x] = 230;
      }
    const lum = (x: number, y: number) => stat[Math.round(y) * W + Math.round(x)];
    const { upper, lower } = lips(g);
    const below = teethBelowLip(restMouth(upper, lower, stat), lum, 230);
    const at = (x: number) => below[Math.round(((x - 100) / 40 + 1) * 128)];
    expect(at(80)).toBeGreaterThan(4);
    expect(at(80)).toBeLessThan(8);
    expect(at(115)).toBe(0);
  });

  it("close in 100–150 ms and open in 150–250 ms", () => {
    expect(BLINK.close).toBeGreaterThanOrEqual(0.1);
    expect(BLINK.close).toBeLessThanOrEqual(0.15);
    expect(BLINK.open).toBeGreaterThanOrEqual(0.15);
    expect(BLINK.open).toBeLessThanOrEqual(0.25);
    expect(blinkAmount([1], 1 + BLINK.close / 2)).toBeGreaterThan(0.2);
    expect(blinkAmount([1], 1 + BLINK.close + BLINK.hold / 2)).toBe(1);
    expect(blinkAmount([1], 1 + BLINK.close + BLINK.hold + BLINK.open)).toBe(0);
  });
});

describe("framing", () => {
  it("keeps the whole head with headroom on a 16:9 canvas (tall portrait)", () => {
    // 620×720 portrait, face mesh 200 px tall starting 180 px down: the head starts ≈ 80 px down.
    const rig = {
      portrait: { width: 620, height: 720 },
      faceBox: { x: 210, y: 180, width: 190, height: 200 },
    } as AvatarRig;
    for (const [w, h] of [
      [1920, 1080],
      [1280, 720],
    ]) {
      const p = placePortrait(rig, 620, 720, {
        width: w,
        height: h,
        fit: "crop",
        backgroundColor: "#000000",
        backgroundFit: "cover",
      });
      const headTop = (180 - 0.5 * 200) * p.scaleY + p.offsetY;
      const chin = (180 + 200) * p.scaleY + p.offsetY;
      expect(headTop).toBeGreaterThanOrEqual(0.05 * h);
      expect(chin).toBeLessThanOrEqual(0.9 * h);
      // Centred on the face.
      expect(Math.abs((210 + 95) * p.scaleX + p.offsetX - w / 2)).toBeLessThan(2);
    }
  });
});
