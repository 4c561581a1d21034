/**
 * The portrait's own colours for the mouth interior, read from its pixels around the face model: skin
 * (cheeks), lips (the lower lip's centre), and for synthesised teeth the eye whites (sclera: their hue is
 * the photo's white under its light) and the lower lip's brightest light (how bright the light is at the
 * mouth). One implementation for the renderer (RGB) and the live client (RGBA canvas pixels).
 */
import type { FaceModel } from "./face-model";
import {
  LEFT_EYE_LOWER0,
  LEFT_EYE_UPPER0,
  LIPS_LOWER_INNER,
  LIPS_LOWER_OUTER,
  RIGHT_EYE_LOWER0,
  RIGHT_EYE_UPPER0,
} from "./facemesh-topology";
import { mouthColors, type MouthColors, type Rgb, rgbLuma } from "./mouth-colors";

/** Interleaved pixels, 3 (RGB) or 4 (RGBA) bytes each, rows top to bottom. */
export interface Pixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Colours of the pixels inside a polygon (canvas points), or within `radius` of some points. */
function pixelsIn(px: Pixels, inside: (x: number, y: number) => boolean, box: [number, number, number, number]): Rgb[] {
  const out: Rgb[] = [];
  const [x0, y0, x1, y1] = box.map(Math.round);
  for (let y = Math.max(0, y0); y <= Math.min(px.height - 1, y1); y++) {
    for (let x = Math.max(0, x0); x <= Math.min(px.width - 1, x1); x++) {
      if (!inside(x + 0.5, y + 0.5)) continue;
      const o = (y * px.width + x) * px.channels;
      out.push([px.data[o], px.data[o + 1], px.data[o + 2]]);
    }
  }
  return out;
}

function inPolygon(pts: Array<[number, number]>): {
  inside: (x: number, y: number) => boolean;
  box: [number, number, number, number];
} {
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const inside = (x: number, y: number) => {
    let c = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i];
      const [xj, yj] = pts[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  return { inside, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
}

function inDiscs(pts: Array<[number, number]>, r: number) {
  const near = (x: number, y: number) => pts.some(([cx, cy]) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return {
    inside: near,
    box: [Math.min(...xs) - r, Math.min(...ys) - r, Math.max(...xs) + r, Math.max(...ys) + r] as [
      number,
      number,
      number,
      number,
    ],
  };
}

const mean = (cs: Rgb[]): Rgb => {
  const s = [0, 0, 0];
  for (const c of cs) for (let i = 0; i < 3; i++) s[i] += c[i];
  return s.map((v) => v / Math.max(1, cs.length)) as Rgb;
};

/** The brightest `share` of the colours (by luma), averaged. */
function brightest(cs: Rgb[], share: number): Rgb {
  const sorted = [...cs].sort((a, b) => rgbLuma(b) - rgbLuma(a));
  return mean(sorted.slice(0, Math.max(1, Math.round(sorted.length * share))));
}

/**
 * The eye whites of both eyes: inside each eye's lid contour, the brightest quarter of the pixels that are
 * nearly grey (the iris, lashes and skin are darker or more coloured) after the brightest tenth
 * (catch-lights); undefined where too few such pixels show (closed or shadowed eyes, glare on glasses).
 */
function sclera(px: Pixels, at: (i: number) => [number, number]): Rgb | undefined {
  const whites: Rgb[] = [];
  for (const [upper, lower] of [
    [RIGHT_EYE_UPPER0, RIGHT_EYE_LOWER0],
    [LEFT_EYE_UPPER0, LEFT_EYE_LOWER0],
  ] as const) {
    const poly = inPolygon([...lower.map(at), ...[...upper].reverse().map(at)]);
    const cs = pixelsIn(px, poly.inside, poly.box).filter(
      (c) => Math.max(...c) - Math.min(...c) < 0.22 * Math.max(...c),
    );
    const sorted = cs.sort((a, b) => rgbLuma(b) - rgbLuma(a));
    whites.push(...sorted.slice(Math.floor(sorted.length * 0.1), Math.floor(sorted.length * 0.35)));
  }
  return whites.length >= 12 ? mean(whites) : undefined;
}

/** Mouth-interior colours of this portrait (mouth-colors.ts turns the samples into colours). */
export function photoMouthColors(px: Pixels, model: FaceModel): MouthColors {
  const at = (i: number): [number, number] => [model.base[i * 2], model.base[i * 2 + 1]];
  const mid = (a: number, b: number): [number, number] => [(at(a)[0] + at(b)[0]) / 2, (at(a)[1] + at(b)[1]) / 2];
  const io = model.interocular;
  const skinAt = inDiscs([at(205), at(425), at(50), at(280)], Math.max(1, io * 0.03));
  const lipAt = inDiscs([mid(14, 17), mid(87, 84), mid(317, 314)], Math.max(1, io * 0.012));
  const lowerLip = inPolygon([...LIPS_LOWER_INNER.map(at), ...[...LIPS_LOWER_OUTER].reverse().map(at)]);
  const skin = mean(pixelsIn(px, skinAt.inside, skinAt.box));
  const lip = mean(pixelsIn(px, lipAt.inside, lipAt.box));
  const white = sclera(px, at);
  const lipLight = brightest(pixelsIn(px, lowerLip.inside, lowerLip.box), 0.1);
  return mouthColors(skin, lip, white ? { sclera: white, lipLight } : undefined);
}
