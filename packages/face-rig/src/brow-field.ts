/**
 * Which face points an expression's brow movement carries, and how much (expression.ts). Moving the brow
 * points alone bends everything that crosses their triangles — a glasses bridge between the brows kinks —
 * so the skin around them moves along with a smooth falloff: the forehead above and the glabella between
 * the brows follow, the lid skin below a little (its own rows do: eyelid-mesh.ts), the eyes and the face's
 * outline not at all.
 */
import type { EyeModel } from "./eye-model";
import { EYE_ROWS } from "./eyelids";
import { FACE_POINTS, LEFT_EYEBROW, RIGHT_EYEBROW, SILHOUETTE } from "./facemesh-topology";

export interface BrowField {
  /** Face points moved, with their weight (1 on a brow), how near a brow's inner end they are (0 outer, 1 inner). */
  idx: Int32Array;
  weight: Float32Array;
  inner: Float32Array;
  /** Per point: the direction towards the nose (x, y), fading to none at the face's middle. */
  inward: Float32Array;
  /** Lid row 2 of each eye (outer corner first): it follows a third of its brow's lift. */
  lidRows: number[][];
}

/** Falloff of the brow movement with distance from the brow (× interocular): upwards and downwards. */
const REACH_UP = 0.16;
const REACH_DOWN = 0.05;

export function buildBrowField(base: Float32Array, eyes: readonly EyeModel[]): BrowField {
  const X = (i: number) => base[i * 2];
  const Y = (i: number) => base[i * 2 + 1];
  const io = Math.hypot(X(263) - X(33), Y(263) - Y(33)) || 1;
  // Down: the eyes' mean normal; across: the line between the inner eye corners, its middle the face's.
  let dnx = eyes[0].nx + eyes[1].nx;
  let dny = eyes[0].ny + eyes[1].ny;
  const dl = Math.hypot(dnx, dny) || 1;
  dnx /= dl;
  dny /= dl;
  const midX = (X(133) + X(362)) / 2;
  const midY = (Y(133) + Y(362)) / 2;
  const sides = [
    { brow: RIGHT_EYEBROW, outer: 33, inner: 133 },
    { brow: LEFT_EYEBROW, outer: 263, inner: 362 },
  ].map(({ brow, outer, inner }) => {
    const dx = X(inner) - X(outer);
    const dy = Y(inner) - Y(outer);
    const len2 = dx * dx + dy * dy || 1;
    const len = Math.sqrt(len2);
    const along = (i: number) => ((X(i) - X(outer)) * dx + (Y(i) - Y(outer)) * dy) / len2;
    return { brow, along, ux: dx / len, uy: dy / len };
  });
  // The eyes move by their own rows (eyelid-mesh.ts); the face's outline stays with the hair around it.
  const eyeRows = EYE_ROWS.flatMap((g) => [g.upper0, g.upper1, g.upper2, g.lower0, g.lower1]);
  const still = new Set<number>([...SILHOUETTE, ...eyeRows.flat()]);
  const idx: number[] = [];
  const weight: number[] = [];
  const inner: number[] = [];
  const inward: number[] = [];
  for (let i = 0; i < FACE_POINTS; i++) {
    if (still.has(i)) continue;
    // The nearest brow point decides the side and how far in; its distance and direction, the weight.
    let best = Infinity;
    let side = 0;
    let near = 0;
    for (let s = 0; s < 2; s++)
      for (const b of sides[s].brow) {
        const d = Math.hypot(X(i) - X(b), Y(i) - Y(b));
        if (d < best) {
          best = d;
          side = s;
          near = b;
        }
      }
    const below = (X(i) - X(near)) * dnx + (Y(i) - Y(near)) * dny > 0;
    const reach = (below ? REACH_DOWN : REACH_UP) * io;
    const w = Math.exp(-((best / reach) ** 2));
    if (w < 0.02) continue;
    const { along, ux, uy } = sides[side];
    // Across the middle the two sides meet: no sideways movement there.
    const fromMiddle = Math.abs((X(i) - midX) * ux + (Y(i) - midY) * uy) / (0.12 * io);
    idx.push(i);
    weight.push(w);
    inner.push(Math.min(1, Math.max(0, along(near))));
    inward.push(ux * Math.min(1, fromMiddle), uy * Math.min(1, fromMiddle));
  }
  return {
    idx: Int32Array.from(idx),
    weight: Float32Array.from(weight),
    inner: Float32Array.from(inner),
    inward: Float32Array.from(inward),
    lidRows: EYE_ROWS.map((g) => [...g.upper2]),
  };
}
