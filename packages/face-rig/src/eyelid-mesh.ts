/**
 * One eye's grid (eyelids.ts explains what it is for): rows of points in the eye's own frame — t along the
 * eye from the outer corner (0) to the inner corner (1), s along its normal towards the lower lid, in px —
 * between the upper-lid row 1 and the lower-lid row 1 of FaceMesh, which stay the region's boundary (their
 * triangles outside are untouched). The first and last columns lie on the region's two short end edges
 * and never move, so the grid meets the rest of the mesh without cracks.
 */
import type { EyeModel } from "./eye-model";
import { catmullRom, piecewiseLinear, type Curve } from "./eye-curves";
import { gridTriangles, interpolateDepth } from "./eye-grid";

export interface EyeGeometry {
  upper0: readonly number[];
  upper1: readonly number[];
  upper2: readonly number[];
  lower0: readonly number[];
  lower1: readonly number[];
  browLower: readonly number[];
}

/** Columns (including the two fixed end columns) and rows of one eye's grid. */
const COLS = 17;
/** Rows, top to bottom: lid skin, lash top, upper margin, 5 opening rows, lower margin, lower lid skin. */
const ROWS = 10;
const OPEN_ROWS = 5;
export const EYE_MESH_VERTICES = COLS * ROWS;

/**
 * Margins beyond the detected lid lines that collapse too: × eye width, + × local opening height, + × eye
 * width towards the corners (where FaceMesh most often places the lids inside the eye).
 */
const MARGIN_UP = { width: 0.025, open: 0.05, corner: 0.1 };
const MARGIN_DOWN = { width: 0.04, open: 0.15, corner: 0.05 };
/** Height of the band above the upper margin that moves rigidly with the lid edge (the lashes), × eye width. */
const LASH = 0.1;
/**
 * Lid skin profile: the skin just under the brow (smooth) stretches more, the skin near the lashes (lash
 * tips, eyeshadow) less — stretch rate 1 ± this share of the mean.
 */
const SKIN_BIAS = 0.5;
/** Highest reach of the lid skin's stretch above the lashes, × eye width. */
const CREASE = 0.22;
/** The lower lid rises by this share of the local opening when the lids meet. */
const LOWER_RISE = 0.1;
/** The photo's lid-edge band carried by the moving lid: from the upper margin to this far (× eye width) below the detected lid line. */
const EDGE_BAND = 0.02;

export function buildEyeMesh(
  base: Float32Array,
  z: Float32Array,
  g: EyeGeometry,
  first: number,
): { model: EyeModel; tris: number[]; replacedVertices: Set<number> } {
  const X = (i: number) => base[i * 2];
  const Y = (i: number) => base[i * 2 + 1];
  const outer = g.lower0[0];
  const inner = g.lower0[g.lower0.length - 1];
  const ox = X(outer);
  const oy = Y(outer);
  const len = Math.hypot(X(inner) - ox, Y(inner) - oy) || 1;
  const ux = (X(inner) - ox) / len;
  const uy = (Y(inner) - oy) / len;
  // Normal towards the lower lid.
  let nx = -uy;
  let ny = ux;
  const mid = g.lower0[g.lower0.length >> 1];
  if ((X(mid) - ox) * nx + (Y(mid) - oy) * ny < 0) {
    nx = -nx;
    ny = -ny;
  }
  const T = (i: number) => ((X(i) - ox) * ux + (Y(i) - oy) * uy) / len;
  const S = (i: number) => (X(i) - ox) * nx + (Y(i) - oy) * ny;
  const toXY = (t: number, s: number): [number, number] => [ox + t * len * ux + s * nx, oy + t * len * uy + s * ny];

  const top = [...g.upper1];
  const bottom = [...g.lower1];
  // End edges of the region: outer (top[0]–bottom[0]) and inner (top[last]–bottom[last]).
  const ends = [
    { a: top[0], b: bottom[0], corner: outer },
    { a: top[top.length - 1], b: bottom[bottom.length - 1], corner: inner },
  ].map(({ a, b, corner }) => {
    // Where the lid lines converge on the end edge: level with the corner (kept off the edge's ends).
    const sa = S(a);
    const sb = S(b);
    const lam = Math.min(0.85, Math.max(0.3, (S(corner) - sa) / (sb - sa || 1)));
    return { a, b, lam, t: T(a) + (T(b) - T(a)) * lam, s: sa + (sb - sa) * lam };
  });
  const [endO, endI] = ends;
  const cornerS = [S(outer), S(inner)];

  const points = (ids: readonly number[]) => ids.map((i): [number, number] => [T(i), S(i)]);
  const polyline = (ids: readonly number[]): Curve => piecewiseLinear(points(ids));
  // Lid lines: smooth (Catmull–Rom) between the corners, straight from each corner to the end edge.
  const lidLine = (ids: readonly number[]): Curve => {
    const inside = catmullRom(points(ids));
    return (t) => {
      if (t <= 0) return cornerS[0] + ((endO.s - cornerS[0]) * t) / (endO.t || -1);
      if (t >= 1) return cornerS[1] + ((endI.s - cornerS[1]) * (t - 1)) / (endI.t - 1 || 1);
      return inside(t);
    };
  };
  const A = polyline(top);
  const B = polyline(bottom);
  const U2 = polyline(g.upper2);
  const brow = polyline(g.browLower);
  const U0 = lidLine([outer, ...g.upper0, inner]);
  const L0 = lidLine(g.lower0);
  // Inside the corners the margins apply in full; they fade out towards the end edges.
  const weight = (t: number) => {
    const f = t < 0 ? 1 - t / endO.t : t > 1 ? 1 - (t - 1) / (endI.t - 1) : 1;
    const x = Math.min(1, Math.max(0, f));
    return x * x * (3 - 2 * x);
  };

  /** Everything a column needs at parameter t (rest s of each row, the blink's targets). */
  const column = (t: number) => {
    const w = weight(t);
    const a = A(t);
    const b = B(t);
    const u0 = Math.max(U0(t), a + 1);
    const l0 = Math.min(Math.max(L0(t), u0), b - 1);
    const open = l0 - u0;
    const corner = t <= 0 || t >= 1 ? 1 : (1 - 2 * t) ** 2;
    const margin = (m: typeof MARGIN_UP) => w * len * (m.width + m.corner * corner) + w * m.open * open;
    const um = u0 - Math.min(margin(MARGIN_UP), 0.45 * (u0 - a));
    // Below, up to 60 % of the lower lid's skin band may be swallowed: FaceMesh often puts the lower lid
    // line above a sliver of white.
    const lm = l0 + Math.min(margin(MARGIN_DOWN), 0.6 * (b - l0));
    const lashTop = um - w * Math.min(LASH * len, 0.45 * (um - a));
    const rise = Math.min(LOWER_RISE * open, 0.3 * (b - lm));
    const meet = lm - rise;
    // The photo's own (blurred) lid edge — from the upper margin to just under the detected lid line —
    // moves with the lid instead of being swallowed first, so the moving edge is as soft as the photo's.
    const edge = Math.min(w * (u0 - um + EDGE_BAND * len), 0.5 * (meet - um));
    // Its upper part — the lid margin with the lashes, down to the detected lid line — is still there when
    // the lids meet: the closed lid ends in the photo's own lash line (the rest slips under the lower lid).
    const keep = Math.min(edge, w * (u0 - um));
    // The lid skin stretches from the brow's lower edge (fixed) down to the lashes, but over at most
    // CREASE eye widths above the lashes (a real lid unfolds from its crease, ≈ 8–10 mm above the lashes
    // of a ≈ 30 mm wide eye); higher up (brow, glasses' rims) nothing moves.
    const u2 = U2(t);
    let fix = brow(t);
    if (!(fix < u2 - 1)) fix = u2 - Math.max(1, u2 - a);
    fix = Math.max(fix, lashTop - CREASE * len);
    return {
      a,
      b,
      um,
      lm,
      // The lower lid's rim (from a little above the detected lid line down to the margin), for a held shape.
      lowRim: Math.min(lm - l0 + EDGE_BAND * len, 0.3 * (lm - um)),
      lashTop,
      rise,
      meet,
      edge,
      keep,
      fix,
      travel: meet - keep - um,
      skin: (lashTop + a) / 2,
      low: (lm + b) / 2,
    };
  };
  type Col = ReturnType<typeof column>;
  /** Where s lies between the skin's fixed line (0) and the lashes (1). */
  const skinX = (c: Col, s: number) => Math.min(1, Math.max(0, (s - c.fix) / Math.max(1e-3, c.lashTop - c.fix)));
  const stretch = (c: Col, s: number) => {
    const x = skinX(c, s);
    return c.travel * x * (1 + SKIN_BIAS * (1 - x));
  };
  /** Share of the lid edge's movement the lid skin at s follows (stretch ÷ travel). */
  const skinShare = (c: Col, s: number) => {
    const x = skinX(c, s);
    return x * (1 + SKIN_BIAS * (1 - x));
  };

  // Movers: parallel arrays filled as we go.
  const idx: number[] = [];
  const lin: number[] = [];
  const clamped: number[] = [];
  const rest: number[] = [];
  const um: number[] = [];
  const meet: number[] = [];
  const lm: number[] = [];
  const rise: number[] = [];
  const edge: number[] = [];
  const keep: number[] = [];
  const open: number[] = [];
  const follow: number[] = [];
  const low: number[] = [];
  /** A linear mover: `d` px at closure; it follows `share` of the upper lid (or, negated, of the lower). */
  const addLinear = (i: number, d: number, c: Col, share: number) => {
    // Points a blink does not move (by less than 1e-4 px) are left out; a held shape moves them as little.
    if (Math.abs(d) < 1e-4) return;
    open.push(c.lm - c.um), follow.push(share), low.push(0);
    idx.push(i),
      lin.push(d),
      clamped.push(0),
      rest.push(0),
      um.push(0),
      meet.push(0),
      lm.push(0),
      rise.push(0),
      edge.push(0),
      keep.push(0);
  };
  const addClamped = (i: number, s: number, c: Col) => {
    open.push(c.lm - c.um), follow.push(0), low.push(c.lowRim);
    idx.push(i),
      lin.push(0),
      clamped.push(1),
      rest.push(s),
      um.push(c.um),
      meet.push(c.meet),
      lm.push(c.lm),
      rise.push(c.rise),
      edge.push(c.edge),
      keep.push(c.keep);
  };

  // Grid rows (rest s at a column) and how each moves.
  const rowS = (r: number, c: Col): number => {
    if (r === 0) return c.skin;
    if (r === 1) return c.lashTop;
    if (r === 2) return c.um;
    if (r === 3) return c.um + c.edge;
    if (r <= 2 + OPEN_ROWS) return c.um + c.edge + ((c.lm - c.um - c.edge) * (r - 3)) / OPEN_ROWS;
    if (r === 3 + OPEN_ROWS) return c.lm;
    return c.low;
  };
  // Row positions on the end edges (share of the way from the top vertex to the bottom one).
  const endLam = (r: number, lam: number) =>
    r === 0 ? lam * 0.4 : r === 1 ? lam * 0.75 : r <= 3 + OPEN_ROWS ? lam : lam + (1 - lam) * 0.5;
  const V = (r: number, k: number) => first + r * COLS + k;
  for (let r = 0; r < ROWS; r++) {
    const e0 = endLam(r, endO.lam);
    const e1 = endLam(r, endI.lam);
    const tL = T(endO.a) + (T(endO.b) - T(endO.a)) * e0;
    const tR = T(endI.a) + (T(endI.b) - T(endI.a)) * e1;
    for (let k = 0; k < COLS; k++) {
      const vi = V(r, k);
      if (k === 0 || k === COLS - 1) {
        // End columns: on the end edge, never moved (exactly as the edge's own vertices move with the head).
        const { a, b } = k === 0 ? endO : endI;
        const e = k === 0 ? e0 : e1;
        base[vi * 2] = X(a) + (X(b) - X(a)) * e;
        base[vi * 2 + 1] = Y(a) + (Y(b) - Y(a)) * e;
        z[vi] = z[a] + (z[b] - z[a]) * e;
        continue;
      }
      const t = tL + ((tR - tL) * k) / (COLS - 1);
      const c = column(t);
      const s = rowS(r, c);
      [base[vi * 2], base[vi * 2 + 1]] = toXY(t, s);
      if (r === 0) addLinear(vi, stretch(c, s), c, skinShare(c, s));
      else if (r === 1) addLinear(vi, c.travel, c, 1);
      else if (r <= 3 + OPEN_ROWS) addClamped(vi, s, c);
      else addLinear(vi, -c.rise * 0.5, c, -0.5);
    }
  }
  // FaceMesh rows outside the grid follow the lid skin's stretch; the unused interior ones follow the lids.
  // (The end edges' own vertices stay put, like the end columns on them.)
  for (const i of g.upper1.slice(1, -1)) {
    const c = column(T(i));
    addLinear(i, stretch(c, S(i)), c, skinShare(c, S(i)));
  }
  // Row 2 hangs from the brow by thin triangles: it follows by half, so none of them turns over.
  for (const i of g.upper2) {
    const c = column(T(i));
    addLinear(i, 0.5 * stretch(c, S(i)), c, 0.5 * skinShare(c, S(i)));
  }
  for (const i of [...g.upper0, ...g.lower0]) addClamped(i, S(i), column(T(i)));
  // Depth of the inner grid points from the eye's landmarks; triangles of the grid and its two seams.
  const interior = Array.from({ length: ROWS }, (_, r) =>
    Array.from({ length: COLS - 2 }, (_, k) => V(r, k + 1)),
  ).flat();
  interpolateDepth(base, z, [...g.upper0, ...g.upper1, ...g.lower0, ...g.lower1], interior);
  const tOf = (i: number) => ((base[i * 2] - ox) * ux + (base[i * 2 + 1] - oy) * uy) / len;
  const tris = gridTriangles(first, COLS, ROWS, top, bottom, tOf);

  const model: EyeModel = {
    nx,
    ny,
    idx: Int32Array.from(idx),
    lin: Float32Array.from(lin),
    clamped: Uint8Array.from(clamped),
    rest: Float32Array.from(rest),
    um: Float32Array.from(um),
    meet: Float32Array.from(meet),
    lm: Float32Array.from(lm),
    rise: Float32Array.from(rise),
    edge: Float32Array.from(edge),
    keep: Float32Array.from(keep),
    open: Float32Array.from(open),
    follow: Float32Array.from(follow),
    low: Float32Array.from(low),
    upper0: [...g.upper0],
    lower0: [...g.lower0],
    upper2: [...g.upper2],
  };
  const replacedVertices = new Set<number>([...g.upper0, ...g.upper1, ...g.lower0, ...g.lower1]);
  return { model, tris, replacedVertices };
}
