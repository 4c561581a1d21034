/**
 * Spectacle rims on the photo (docs/performance.md, "Limits"): near-black thin strokes around the eyes that
 * pass both above and below an eye (a rim) or run from one eye to the other below the brows (a bridge and top
 * bars), found from the still's luma. Pure pixels → mask, shared by the renderer (container/src/paint/
 * eyewear.ts) and the live client, which both keep them rigid under an expression.
 * Brows, lashes and hair are not eyewear: they do not cross an eye or bridge the nose below the brows.
 */
import type { FaceModel } from "./face-model";
import { SILHOUETTE } from "./facemesh-topology";
import { grow, rasterMax, runs } from "./raster";

/** The strokes' weight (1 on them, ½ on the outer ring of their blurred edge) in the luma box around the eyes. */
export interface EyewearMask {
  alpha: Float32Array;
  /** Canvas px, x0 and y0 even; alpha is (x1 − x0) × (y1 − y0). */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** The widest stroke, px (the filled-in skin is relaxed over twice this). */
  thin: number;
}

/** Dark: luma under this share of the skin's and 50 below it (rims are near black; brows, creases are not). */
const DARK = 0.4;
/** Thin: the shorter of a pixel's dark runs across it is at most this, × interocular (a brow's height is more). */
const THIN = 0.11;
/** Width of each ring of the stroke's blurred edge taken along, × interocular. */
const EDGE = 0.012;
/** How far inside the face's outline eyewear is looked for, × interocular. */
const INSET = 0.06;
/** Share of a dark structure's pixels that must be thin. */
const THIN_SHARE = 0.6;
/** The box around the eyes: beyond the eye corners, above the brows, below the lower lids (× interocular). */
const BOX = { side: 0.45, above: 0.12, below: 0.35 };
/** Lid-grid vertices per eye and per grid row (packages/face-rig/src/eyelid-mesh.ts), both grids last in the mesh. */
const GRID = { cols: 17, vertices: 170 };

/** Find the eyewear on the still (luma first: yuv420p or a W × H luma plane, W × H), or undefined. */
export function eyewearMask(m: FaceModel, still: Uint8Array, W: number, H: number): EyewearMask | undefined {
  const io = m.interocular;
  const X = (i: number) => m.base[i * 2];
  const Y = (i: number) => m.base[i * 2 + 1];
  // A lid's line: y at x, straight between its points (clamped at the corners).
  const lidLine = (row: number[]) => {
    const pts = row.map((i) => [X(i), Y(i)]).sort((a, b) => a[0] - b[0]);
    return (x: number) => {
      let k = 0;
      while (k < pts.length - 2 && pts[k + 1][0] < x) k++;
      const [[x0, y0], [x1, y1]] = [pts[k], pts[k + 1]];
      const t = Math.min(1, Math.max(0, (x - x0) / (x1 - x0 || 1)));
      return y0 + t * (y1 - y0);
    };
  };
  const eyes = m.eyes.map((eye) => {
    const xs = [...eye.upper0, ...eye.lower0].map(X);
    return {
      x0: Math.min(...xs),
      x1: Math.max(...xs),
      bottom: Math.max(...eye.lower0.map(Y)),
      upper: lidLine(eye.upper0),
      lower: lidLine(eye.lower0),
    };
  });
  const browTop = Math.min(...m.brows.map(Y));
  const r = m.region;
  const bx = Math.max(r.x0, Math.floor(Math.min(eyes[0].x0, eyes[1].x0) - BOX.side * io)) & ~1;
  const by = Math.max(r.y0, Math.floor(browTop - BOX.above * io)) & ~1;
  const bx1 = Math.min(r.x1, W, Math.ceil(Math.max(eyes[0].x1, eyes[1].x1) + BOX.side * io));
  const by1 = Math.min(r.y1, H, Math.ceil(Math.max(eyes[0].bottom, eyes[1].bottom) + BOX.below * io));
  const bw = bx1 - bx;
  const bh = by1 - by;
  if (!(bw > 8 && bh > 8)) return undefined;
  const L = (i: number) => still[(by + Math.floor(i / bw)) * W + bx + (i % bw)];
  // Skin reference: the box's 75th percentile (hair and eyes are darker, a lit forehead not much brighter).
  const hist = new Int32Array(256);
  for (let i = 0; i < bw * bh; i++) hist[L(i)]++;
  let ref = 0;
  for (let n = 0; ref < 255 && n + hist[ref] <= 0.75 * bw * bh; ref++) n += hist[ref];
  // Dark pixels well inside the face's outline only: hair beside the face is dark and thin at its edges
  // (and the outline does not move, so neither does a temple there).
  const face = polygonMask(
    SILHOUETTE.map((i) => [X(i) - bx, Y(i) - by]),
    bw,
    bh,
  );
  const outside = dilate(
    Uint8Array.from(face, (f) => 1 - f),
    bw,
    bh,
    Math.max(1, Math.round(INSET * io)),
  );
  const near = new Uint8Array(bw * bh);
  const dark = new Uint8Array(bw * bh);
  for (let i = 0; i < dark.length; i++) {
    near[i] = face[i] && L(i) < Math.min(DARK * ref, ref - 50) ? 1 : 0;
    dark[i] = near[i] && !outside[i] ? 1 : 0;
  }
  // The eyes themselves (lid grid rows 1 and below: lashes, opening, lower lid) are never eyewear.
  const eyeMask = new Float32Array(bw * bh);
  const first = m.count - 2 * GRID.vertices;
  const inEye = (v: number) => v >= first && (v - first) % GRID.vertices >= GRID.cols;
  for (let t = 0; t < m.tris.length; t += 3)
    if (inEye(m.tris[t]) && inEye(m.tris[t + 1]) && inEye(m.tris[t + 2]))
      rasterMax(eyeMask, bx, by, bw, bh, m.base, 1, m.tris[t], m.tris[t + 1], m.tris[t + 2], 1);
  const runX = runs(near, bw, bh, 1, bw);
  const runY = runs(near, bh, bw, bw, 1);
  const T = Math.max(3, THIN * io);
  const thin = (i: number) => Math.min(runX[i], runY[i]) <= T && !eyeMask[i];
  // Where a bridge or top bar must pass: below each brow's lower edge.
  const browLow = browLowerEdges(m);
  const alpha = new Float32Array(bw * bh);
  let any = false;
  for (const comp of components(dark, bw, bh)) {
    const px = comp.filter(thin);
    // A stroke is mostly thin; a lock of hair or a shadow is a blob with thin edges.
    if (px.length < THIN_SHARE * comp.length) continue;
    // Which eighths of each eye's width the stroke passes above the upper lid, below the lower one, and
    // between the brow and the eye: a rim passes above and below most of an eye, a bridge's top bars
    // between brow and eye over most of both; a lock of hair crosses a narrow part only.
    const cover = eyes.map(() => ({ above: 0, below: 0, bar: 0 }));
    for (const i of px) {
      const x = bx + (i % bw);
      const y = by + Math.floor(i / bw);
      eyes.forEach((e, k) => {
        const bin = Math.floor(((x - e.x0) / (e.x1 - e.x0)) * 8);
        if (bin < 0 || bin > 7) return;
        const bit = 1 << bin;
        const c = cover[k];
        if (y < e.upper(x) - 0.02 * io) c.above |= bit;
        if (y > e.lower(x) + 0.02 * io) c.below |= bit;
        if (y > browLow[k] + 0.04 * io && y < e.upper(x)) c.bar |= bit;
      });
    }
    const most = (bits: number) => bitCount(bits) >= 5;
    const crosses = cover.map((c) => most(c.above) && most(c.below));
    const bridges = cover.every((c) => most(c.bar));
    if (!crosses.some(Boolean) && !bridges) continue;
    for (const i of px) alpha[i] = 1;
    any = true;
  }
  if (!any) return undefined;
  // The strokes go on, thin, into the band along the outline (a temple up to where it meets the hair).
  reach(alpha, (i) => near[i] === 1 && thin(i), bw, bh, Math.round(INSET * io));
  // The stroke's blurred edge comes along: a ring at full weight and one at half, wider on a larger face.
  const ring = Math.max(1, Math.round(EDGE * io));
  grow(alpha, bw, bh, ring, 1);
  grow(alpha, bw, bh, ring, 0.5);
  return { alpha, box: { x0: bx, y0: by, x1: bx1, y1: by1 }, thin: Math.max(3, THIN * io) };
}

/** The still's box with the occluder filled: each covered pixel interpolated across the shorter covered run (rows or columns). */
export function fillUnder(
  still: Uint8Array,
  p: { off: number; pw: number; bx: number; by: number; bw: number; bh: number; alpha: Float32Array },
): Uint8Array {
  const { bw, bh, alpha } = p;
  const S = (x: number, y: number) => still[p.off + (p.by + y) * p.pw + p.bx + x];
  const out = new Uint8Array(bw * bh);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) {
      if (!alpha[y * bw + x]) {
        out[y * bw + x] = S(x, y);
        continue;
      }
      let l = x,
        r = x,
        u = y,
        d = y;
      while (l >= 0 && alpha[y * bw + l]) l--;
      while (r < bw && alpha[y * bw + r]) r++;
      while (u >= 0 && alpha[u * bw + x]) u--;
      while (d < bh && alpha[d * bw + x]) d++;
      const hOk = l >= 0 && r < bw,
        vOk = u >= 0 && d < bh;
      const useH = hOk && (!vOk || r - l <= d - u);
      if (useH) out[y * bw + x] = Math.round(S(l, y) + ((S(r, y) - S(l, y)) * (x - l)) / (r - l));
      else if (vOk) out[y * bw + x] = Math.round(S(x, u) + ((S(x, d) - S(x, u)) * (y - u)) / (d - u));
      else out[y * bw + x] = S(x, y);
    }
  return out;
}

/**
 * Smooth the filled-in pixels (alpha > 0) towards the skin around them: `n` sweeps of each taking its four
 * neighbours' mean. The fill interpolates across each pixel's shorter run, so neighbouring runs disagree
 * and the skin a raised brow uncovers would show them as streaks.
 */
export function relaxFill(clean: Uint8Array, alpha: Float32Array, bw: number, bh: number, n: number): void {
  const v = Float32Array.from(clean);
  for (let k = 0; k < n; k++)
    for (let y = 1; y < bh - 1; y++)
      for (let x = 1; x < bw - 1; x++) {
        const i = y * bw + x;
        if (alpha[i]) v[i] = (v[i - 1] + v[i + 1] + v[i - bw] + v[i + bw]) / 4;
      }
  for (let i = 0; i < v.length; i++) clean[i] = Math.round(v[i]);
}

/** Pixels within r (chessboard) of a set pixel of `mask`: a square window's maximum, rows then columns, by running counts. */
function dilate(mask: Uint8Array, bw: number, bh: number, r: number): Uint8Array {
  const pass = (src: Uint8Array, n: number, lines: number, at: (line: number, i: number) => number) => {
    const out = new Uint8Array(src.length);
    for (let l = 0; l < lines; l++) {
      let count = 0;
      for (let i = 0; i < Math.min(r, n); i++) count += src[at(l, i)];
      for (let i = 0; i < n; i++) {
        if (i + r < n) count += src[at(l, i + r)];
        if (i - r - 1 >= 0) count -= src[at(l, i - r - 1)];
        out[at(l, i)] = count > 0 ? 1 : 0;
      }
    }
    return out;
  };
  const rows = pass(mask, bw, bh, (y, x) => y * bw + x);
  return pass(rows, bh, bw, (x, y) => y * bw + x);
}

/** Grow the set pixels of `a` (value 1) into pixels that pass `ok`, 8-connected, up to `n` steps. */
function reach(a: Float32Array, ok: (i: number) => boolean, bw: number, bh: number, n: number): void {
  let front: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] === 1) front.push(i);
  for (let step = 0; step < n && front.length; step++) {
    const next: number[] = [];
    for (const i of front) {
      const x = i % bw;
      const y = (i - x) / bw;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const j = (y + dy) * bw + x + dx;
          if (x + dx < 0 || y + dy < 0 || x + dx >= bw || y + dy >= bh || a[j] === 1 || !ok(j)) continue;
          a[j] = 1;
          next.push(j);
        }
    }
    front = next;
  }
}

const bitCount = (n: number) => {
  let c = 0;
  for (let b = n; b; b &= b - 1) c++;
  return c;
};

/** Per brow (right eye's first): the lowest point of its lower edge, canvas y. */
function browLowerEdges(m: FaceModel): number[] {
  const half = m.brows.length / 2;
  return [m.brows.slice(0, half), m.brows.slice(half)].map((b) => Math.max(...b.map((i) => m.base[i * 2 + 1])));
}

/** Pixels (of a w × h box) whose centres lie inside the polygon (box coordinates), even-odd by rows. */
function polygonMask(poly: number[][], w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const py = y + 0.5;
    const xs: number[] = [];
    for (let k = 0; k < poly.length; k++) {
      const [x0, y0] = poly[k];
      const [x1, y1] = poly[(k + 1) % poly.length];
      if (y0 <= py !== y1 <= py) xs.push(x0 + ((py - y0) * (x1 - x0)) / (y1 - y0));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2)
      for (let x = Math.max(0, Math.ceil(xs[k] - 0.5)); x <= Math.min(w - 1, Math.floor(xs[k + 1] - 0.5)); x++)
        out[y * w + x] = 1;
  }
  return out;
}

/** 8-connected components of set pixels (a rim's thick joints link its thin arcs), as pixel index lists. */
function components(mask: Uint8Array, bw: number, bh: number): number[][] {
  const seen = new Uint8Array(mask.length);
  const out: number[][] = [];
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || seen[s]) continue;
    const comp: number[] = [];
    stack.push(s);
    seen[s] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      comp.push(i);
      const x = i % bw;
      const y = (i - x) / bw;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx;
          const Y = y + dy;
          const j = Y * bw + X;
          if (X >= 0 && Y >= 0 && X < bw && Y < bh && mask[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    out.push(comp);
  }
  return out;
}
