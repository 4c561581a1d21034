/**
 * Where a smiling photo's lower lip really begins. The lip-refined mesh can put the lower inner-lip points
 * on the teeth towards a lip corner (on the teeth sample portrait, at the image-left side), so a strip of
 * teeth belongs to the lower lip and, when the jaw drops, moves down with it: a light sliver beside the
 * dark cavity, ending in a thin dark edge. Measured once on the still frame, per u: how far below the mesh's
 * lower inner-lip curve the teeth still reach (px along the mouth's down axis, at rest). The interior treats
 * that strip as part of the opening (mouth-shade.ts, mouth-layers.ts).
 */
import { curveAt, LUT, type MouthAxis } from "./lip-curve";

/** The deepest strip looked for, in half mouth widths (the teeth sample portrait's is ≈ 0.2). */
const MAX_DEPTH = 0.3;

/** The photo's mouth at rest: its corner line and lower inner-lip curve (a lookup table in that frame). */
type Rest = { ax: MouthAxis; lo: Float64Array };

/**
 * Per u ∈ [-1, 1] (a lookup table of LUT + 1 entries, read with curveAt): the teeth's depth below the lower
 * inner-lip curve, px — where the luma down from the curve first drops below halfway between the teeth and
 * the lower lip (the middle of the photo's own blurred edge); 0 where the curve already lies on the lip.
 */
export function teethBelowLip(
  { ax, lo }: Rest,
  lum: (x: number, y: number) => number,
  teethLuma: number,
): Float64Array {
  const at = (u: number, v: number) =>
    lum(ax.ox + u * ax.hw * ax.ex - v * ax.ey, ax.oy + u * ax.hw * ax.ey + v * ax.ex);
  // The lower lip's luma in the middle, well below its inner edge.
  const lip: number[] = [];
  for (let u = -0.3; u <= 0.3; u += 0.05) lip.push(at(u, curveAt(lo, LUT, u) + 0.12 * ax.hw));
  lip.sort((a, b) => a - b);
  const edge = (teethLuma + lip[lip.length >> 1]) / 2;
  const raw = new Float64Array(LUT + 1);
  for (let k = 0; k <= LUT; k++) {
    const u = -1 + (2 * k) / LUT;
    const v0 = lo[k];
    if (at(u, v0) < edge) continue;
    for (let t = 0.5; t <= MAX_DEPTH * ax.hw; t += 0.5) {
      if (at(u, v0 + t) >= edge) continue;
      raw[k] = t >= 1 ? t : 0;
      break;
    }
  }
  // A little smoothing along the lip (no column-to-column jitter in the drawn edge).
  const out = new Float64Array(LUT + 1);
  const R = 4;
  for (let k = 0; k <= LUT; k++) {
    let s = 0;
    let n = 0;
    for (let j = Math.max(0, k - R); j <= Math.min(LUT, k + R); j++, n++) s += raw[j];
    out[k] = s / n;
  }
  return out;
}
