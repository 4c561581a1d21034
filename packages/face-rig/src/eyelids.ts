/**
 * The eyelids: a dedicated mesh per eye and how a blink moves it (docs/animation.md, "Blinks").
 *
 * FaceMesh's own triangles over the eye (the opening and the thin band up to the first lid row) cannot close
 * an eye cleanly: 7 upper against 9 lower points leave slivers of the opening between mismatched chords,
 * and the landmarks often sit a pixel or two inside the opening, so the lid band carries a line of eye
 * white down with it. Here the region inside the upper-lid row 1 and the lower-lid row 1 is re-meshed as a
 * grid of columns across the eye (eyelid-mesh.ts). In each column:
 *  - the *opening band* runs from a margin above the detected upper lid to a margin below the detected
 *    lower lid; in a blink the upper lid edge sweeps down through it and every row it passes is swallowed
 *    (the lid covers the eye, nothing is squashed), and at closure the whole band — eye white, iris and
 *    the margins — has collapsed onto the line where the lids meet, in every column, corners included;
 *  - the *lash band* just above the opening band moves rigidly with the lid edge (lashes keep their size);
 *  - the lid skin from the brow's lower edge down to the lashes stretches evenly to cover the eye (the lid
 *    unfolding from the crease), so no thin strip is smeared; the lower lid rises a little.
 * Every point moves along the eye's own normal. Nothing is drawn.
 */
import { buildEyeMesh, EYE_MESH_VERTICES, type EyeGeometry } from "./eyelid-mesh";
import type { EyeModel } from "./eye-model";

export type { EyeModel };
import {
  LEFT_EYE_LOWER0,
  LEFT_EYE_LOWER1,
  LEFT_EYE_UPPER0,
  LEFT_EYE_UPPER1,
  LEFT_EYE_UPPER2,
  LEFT_EYEBROW,
  RIGHT_EYE_LOWER0,
  RIGHT_EYE_LOWER1,
  RIGHT_EYE_UPPER0,
  RIGHT_EYE_UPPER1,
  RIGHT_EYE_UPPER2,
  RIGHT_EYEBROW,
} from "./facemesh-topology";

/** Extra mesh vertices of both eyes (appended after the anchor rings). */
export const EYE_GRID_VERTICES = 2 * EYE_MESH_VERTICES;

/** Each eye's lid rows and the lower edge of its brow, right eye first (the brow field keeps the rows still). */
export const EYE_ROWS: readonly [EyeGeometry, EyeGeometry] = [
  {
    upper0: RIGHT_EYE_UPPER0,
    upper1: RIGHT_EYE_UPPER1,
    upper2: RIGHT_EYE_UPPER2,
    lower0: RIGHT_EYE_LOWER0,
    lower1: RIGHT_EYE_LOWER1,
    browLower: RIGHT_EYEBROW.slice(8),
  },
  {
    upper0: LEFT_EYE_UPPER0,
    upper1: LEFT_EYE_UPPER1,
    upper2: LEFT_EYE_UPPER2,
    lower0: LEFT_EYE_LOWER0,
    lower1: LEFT_EYE_LOWER1,
    browLower: LEFT_EYEBROW.slice(8),
  },
];

export interface EyeMeshes {
  eyes: [EyeModel, EyeModel];
  /** True for a FaceMesh triangle that the eye grids replace. */
  replaced: (a: number, b: number, c: number) => boolean;
  /** The eye grids' triangles (index triples). */
  tris: number[];
}

/**
 * Build both eyes' grids: writes the grid vertices' rest positions and depths into `base` / `z` from
 * vertex `first` on (FaceMesh points must already be placed).
 */
export function buildEyeMeshes(base: Float32Array, z: Float32Array, first: number): EyeMeshes {
  const tris: number[] = [];
  const eyes = EYE_ROWS.map((g, e) => {
    const m = buildEyeMesh(base, z, g, first + e * EYE_MESH_VERTICES);
    tris.push(...m.tris);
    return m;
  });
  const inside = eyes.map((m) => m.replacedVertices);
  return {
    eyes: [eyes[0].model, eyes[1].model],
    replaced: (a, b, c) => inside.some((s) => s.has(a) && s.has(b) && s.has(c)),
    tris,
  };
}

/**
 * A held lid shape (an expression), in shares of each column's opening: `upper` > 0 lowers the upper lid
 * (narrower), < 0 raises it (wider); `lower` > 0 raises the lower lid, < 0 lowers it. A lid that comes down
 * over the eye covers it (the rows it passes are swallowed, as in a blink); one that moves off the eye
 * stretches the opening between them.
 */
export interface LidShape {
  upper: number;
  lower: number;
}

/** Move the lids of one eye for closure amount c (0 open … 1 closed), from a held shape, into `out`. */
export function moveLids(eye: EyeModel, c: number, out: Float32Array, shape?: LidShape): void {
  if (shape && (shape.upper !== 0 || shape.lower !== 0)) {
    moveShapedLids(eye, c, out, shape);
    return;
  }
  const { nx, ny, idx, lin, clamped, rest, um, meet, lm, rise, edge, keep } = eye;
  for (let k = 0; k < idx.length; k++) {
    let d: number;
    if (clamped[k]) d = openingMove(rest[k], um[k], meet[k], lm[k], rise[k], edge[k], keep[k], c) - rest[k];
    else d = lin[k] * c;
    if (d === 0) continue;
    const i = idx[k];
    out[i * 2] += d * nx;
    out[i * 2 + 1] += d * ny;
  }
}

/**
 * The lids set to a shape first (up / lo: the upper and lower lid's movement in px, positive downwards), then
 * the blink from there: it closes on the lower lid's new line.
 */
function moveShapedLids(eye: EyeModel, c: number, out: Float32Array, shape: LidShape): void {
  const { nx, ny, idx, lin, clamped, rest, um, meet, lm, rise, edge, keep, open, follow, low } = eye;
  for (let k = 0; k < idx.length; k++) {
    const up = shape.upper * open[k];
    const lo = -shape.lower * open[k];
    let d: number;
    if (clamped[k]) {
      const s = shapedRest(rest[k], um[k], lm[k], edge[k], low[k], up, lo);
      d = openingMove(s, um[k] + up, meet[k] + lo, lm[k] + lo, rise[k], edge[k], keep[k], c) - rest[k];
    } else {
      // Lid skin and lashes follow the upper lid (over the blink, towards the lower lid's line); the skin
      // under the eye follows the lower lid.
      const f = follow[k];
      d = lin[k] * c + (f > 0 ? f * (up * (1 - c) + lo * c) : -f * lo);
    }
    if (d === 0) continue;
    const i = idx[k];
    out[i * 2] += d * nx;
    out[i * 2 + 1] += d * ny;
  }
}

/**
 * Where a point of the opening band at rest s sits with the lids moved by up / lo: the upper lid's edge band
 * [um, um + edge] and the lower rim [lm − low, lm] ride with their lids; the eye between is stretched where a
 * lid moves off it and covered (pressed onto the lid's edge) where a lid comes over it.
 */
function shapedRest(s: number, um: number, lm: number, edge: number, low: number, up: number, lo: number): number {
  const a0 = um + edge;
  const b0 = lm - low;
  if (s <= a0) return s + up;
  if (s >= b0) return s + lo;
  let top = a0 + up;
  let bottom = b0 + lo;
  if (top > bottom) top = bottom = (top + bottom) / 2;
  const a1 = a0 + Math.min(up, 0);
  const b1 = b0 + Math.max(lo, 0);
  const stretched = b0 - a0 > 1e-3 ? a1 + ((s - a0) * (b1 - a1)) / (b0 - a0) : s;
  return Math.min(Math.max(stretched, top), bottom);
}

/**
 * Position (along the eye's normal) of a point of the opening band at rest position s, closure c: the edge
 * band rides rigidly on the lid edge and slips under the lower lid where it reaches it (the lashes keep
 * their size), the eye below is swallowed by the edge and pressed up by the lower lid.
 */
function openingMove(
  s: number,
  um: number,
  meet: number,
  lm: number,
  rise: number,
  band: number,
  keep: number,
  c: number,
): number {
  const e = um + (meet - keep - um) * c;
  const lower = lm - rise * c;
  if (s <= um + band) return Math.min(e + (s - um), lower);
  const top = Math.min(e + band, lower);
  const span = lm - top;
  if (!(span > 1e-6)) return lower;
  return top + ((Math.max(s, top) - top) * (lower - top)) / span;
}
