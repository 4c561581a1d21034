/**
 * Occluders carried over warped triangles (lid-paint.ts for a blink's lids, eyewear.ts for glasses under an
 * expression): a moving triangle's pixels whose source lies under an occluder take the filled-in still
 * (`takeOut`), and the occluder's still pixels are put back where the head alone carries them (`putBack`).
 */
import { type FaceModel, rasterMax, triangleRows } from "@avatar-video/face-rig";
import type { OccluderPlane } from "./lid-occluders";

/**
 * Bilinear sample of a box of values (bw × bh, row r at a[off + r · stride]) at box coordinates (x, y),
 * clamped to the box.
 */
function sample(a: Uint8Array, off: number, stride: number, bw: number, bh: number, x: number, y: number): number {
  const cx = Math.min(bw - 1, Math.max(0, x)),
    cy = Math.min(bh - 1, Math.max(0, y));
  const x0 = Math.min(bw - 2, Math.floor(cx)),
    y0 = Math.min(bh - 2, Math.floor(cy));
  const fx = cx - x0,
    fy = cy - y0;
  const o = off + y0 * stride + x0;
  return (a[o] * (1 - fx) + a[o + 1] * fx) * (1 - fy) + (a[o + stride] * (1 - fx) + a[o + stride + 1] * fx) * fy;
}

/** One occluder plane, with the triangles (vertex triples) that may carry it away: an eye's blink triangles, or eyewear's. */
export interface Occluder {
  m: FaceModel;
  tris: number[][];
  p: OccluderPlane;
  /** Per triangle, the box (x0, y0, x1, y1, plane box px) of its occluder pixels at rest: only the pixels that can map there are looked at. */
  bounds?: Map<number[], Int32Array>;
}

/** Triangles of `tris` with a vertex moved from its rest position. */
function movedTris(m: FaceModel, xy: Float32Array, tris: number[][]): number[][] {
  const unmoved = (i: number) => xy[i * 2] === m.base[i * 2] && xy[i * 2 + 1] === m.base[i * 2 + 1];
  return tris.filter((t) => !t.every(unmoved));
}

/**
 * Pixels of moved triangles whose source lies under an occluder take the filled-in still instead. `reach`
 * (plane px): only pixels within that distance of the occluder's box are looked at (large triangles reach
 * far beyond it); without it, the whole plane.
 */
export function takeOut(frame: Uint8Array, xy: Float32Array, o: Occluder, reach?: number): void {
  const { m, p } = o;
  const moved = movedTris(m, xy, o.tris);
  const r = reach === undefined ? undefined : Math.ceil(reach);
  const ox = r === undefined ? 0 : Math.max(0, p.bx - r);
  const oy = r === undefined ? 0 : Math.max(0, p.by - r);
  const w = r === undefined ? p.pw : Math.min(p.pw, p.bx + p.bw + r) - ox;
  const h = r === undefined ? p.ph : Math.min(p.ph, p.by + p.bh + r) - oy;
  forOccludedPixels({ ...o, tris: moved }, { pos: xy, ox, oy, w, h }, (x, y, sx, sy) => {
    frame[p.off + (y + oy) * p.pw + x + ox] = Math.round(sample(p.clean, 0, p.bw, p.bw, p.bh, sx, sy));
  });
}

/**
 * Composite the occluders' still pixels where the head alone carries them (`still0`, the pose without the
 * blink, or without the expression): every pixel of the triangles there is mapped back to the still (so no
 * holes under head motion) and takes the still where an occluder covers it, inside the triangles at `xy`
 * that the warp repainted (`repainted`: by default the occluder's own; null when the caller knows every
 * pixel placed is).
 */
export function putBack(
  frame: Uint8Array,
  still: Uint8Array,
  xy: Float32Array,
  still0: Float32Array,
  o: Occluder,
  matte = false,
  repainted: number[][] | null = o.tris,
): void {
  const { p } = o;
  const { scale: k, bw, bh } = p;
  const inside = new Float32Array(repainted ? bw * bh : 0);
  for (const t of repainted ?? []) rasterMax(inside, p.bx, p.by, bw, bh, xy, k, t[0], t[1], t[2], 1);
  const at = p.off + p.by * p.pw + p.bx;
  forOccludedPixels(o, { pos: still0, ox: p.bx, oy: p.by, w: bw, h: bh }, (x, y, sx, sy, a) => {
    if (repainted && !inside[y * bw + x]) return;
    const i = p.off + (p.by + y) * p.pw + p.bx + x;
    const s = sample(still, at, p.pw, bw, bh, sx, sy);
    // `matte`: the still is the occluder over the filled-in skin at alpha a, so it goes over the frame's skin
    // the same way (the blurred edge keeps its darkening; where nothing moved the still comes back exactly).
    const v = matte ? s + (1 - a) * (frame[i] - sample(p.clean, 0, bw, bw, bh, sx, sy)) : frame[i] + a * (s - frame[i]);
    frame[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  });
}

/** Where the triangles are painted: vertex positions `pos` × the plane's scale less (ox, oy), in a w × h raster. */
interface Placement {
  pos: Float32Array;
  ox: number;
  oy: number;
  w: number;
  h: number;
}

/**
 * Every pixel of the eye's triangles placed `at` whose source, mapped back to the triangle's rest position in
 * the occluder plane's box (mapBack), lies on an occluder: `visit(x, y, sx, sy, alpha)`.
 */
function forOccludedPixels(
  o: Occluder,
  at: Placement,
  visit: (x: number, y: number, sx: number, sy: number, alpha: number) => void,
): void {
  const { scale: k, bw, bh } = o.p;
  for (const v of o.tris) {
    const P = at.pos;
    const ax = P[v[0] * 2] * k - at.ox,
      ay = P[v[0] * 2 + 1] * k - at.oy,
      bx = P[v[1] * 2] * k - at.ox,
      by = P[v[1] * 2 + 1] * k - at.oy,
      cx = P[v[2] * 2] * k - at.ox,
      cy = P[v[2] * 2 + 1] * k - at.oy;
    const back = mapBack([ax, ay, bx, by, cx, cy], v, o.m, o.p);
    if (!back) continue;
    const [rx, ry, m11, m12, m21, m22] = back;
    const clip = o.bounds ? clipTo(o.bounds.get(v), rx, ry, m11, m12, m21, m22, ax, ay) : FULL;
    if (!clip) continue;
    triangleRows(ax, ay, bx, by, cx, cy, at.w, at.h, (x0, x1, y) => {
      if (y < clip[1] || y > clip[3]) return;
      const dy = y + 0.5 - ay;
      for (let x = Math.max(x0, clip[0]); x <= Math.min(x1, clip[2]); x++) {
        const dx = x + 0.5 - ax;
        const sx = rx + m11 * dx + m12 * dy,
          sy = ry + m21 * dx + m22 * dy;
        const ix = Math.round(sx),
          iy = Math.round(sy);
        if (ix < 0 || iy < 0 || ix >= bw || iy >= bh) continue;
        const a = o.p.alpha[iy * bw + ix];
        if (a) visit(x, y, sx, sy, a);
      }
    });
  }
}

const FULL = [-Infinity, -Infinity, Infinity, Infinity];

/**
 * The placed pixels (x0, y0, x1, y1) that can map back into rest box `b` (plane box px) of a triangle whose
 * back-mapping is source = r + M · (pixel + ½ − a): the box's corners mapped forward, a pixel of slack.
 */
function clipTo(
  b: Int32Array | undefined,
  rx: number,
  ry: number,
  m11: number,
  m12: number,
  m21: number,
  m22: number,
  ax: number,
  ay: number,
): number[] | undefined {
  if (!b) return undefined;
  const det = m11 * m22 - m12 * m21;
  if (Math.abs(det) < 1e-12) return FULL;
  const out = [Infinity, Infinity, -Infinity, -Infinity];
  for (const sx of [b[0] - 1, b[2] + 1])
    for (const sy of [b[1] - 1, b[3] + 1]) {
      const ux = sx - rx;
      const uy = sy - ry;
      const x = ax - 0.5 + (m22 * ux - m12 * uy) / det;
      const y = ay - 0.5 + (-m21 * ux + m11 * uy) / det;
      out[0] = Math.min(out[0], Math.floor(x) - 1);
      out[1] = Math.min(out[1], Math.floor(y) - 1);
      out[2] = Math.max(out[2], Math.ceil(x) + 1);
      out[3] = Math.max(out[3], Math.ceil(y) + 1);
    }
  return out;
}

/**
 * Affine map from a painted triangle (corners `q`: ax, ay, bx, by, cx, cy) back to its rest position in the
 * occluder plane's box: source = rest(a) + M · (pixel − a). Returns [rest ax, rest ay, m11, m12, m21, m22].
 */
function mapBack(q: number[], v: number[], m: FaceModel, p: OccluderPlane): number[] | undefined {
  const [ax, ay, bx, by, cx, cy] = q;
  const k = p.scale;
  const b = m.base;
  const rx = b[v[0] * 2] * k - 0.5 - p.bx,
    ry = b[v[0] * 2 + 1] * k - 0.5 - p.by,
    sx1 = b[v[1] * 2] * k - 0.5 - p.bx,
    sy1 = b[v[1] * 2 + 1] * k - 0.5 - p.by,
    tx = b[v[2] * 2] * k - 0.5 - p.bx,
    ty = b[v[2] * 2 + 1] * k - 0.5 - p.by;
  const d = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
  if (Math.abs(d) < 1e-9) return undefined;
  const i11 = (cy - ay) / d,
    i12 = -(cx - ax) / d,
    i21 = -(by - ay) / d,
    i22 = (bx - ax) / d;
  return [
    rx,
    ry,
    (sx1 - rx) * i11 + (tx - rx) * i21,
    (sx1 - rx) * i12 + (tx - rx) * i22,
    (sy1 - ry) * i11 + (ty - ry) * i21,
    (sy1 - ry) * i12 + (ty - ry) * i22,
  ];
}
