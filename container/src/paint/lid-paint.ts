/**
 * A blink's lids after the warp (docs/animation.md, "Blinks up close"): occluders crossing the lid are
 * taken out of the moving lid's texture (lid-occluders.ts), the stretched lid skin is smoothed
 * (lid-skin.ts), the moving lid edge is softened to the photo's own blur, and the occluders are put back
 * where the head alone carries them. Every write lies inside the blink's triangles, which the warp repaints
 * every frame.
 */
import { deform, type FaceModel, type FacePose } from "@avatar-video/face-rig";
import { tri3, type LidOccluders, type OccluderPlane } from "./lid-occluders";
import { rasterMax, smoothLidSkin, triangleRows, type LidSkinPlan } from "./lid-skin";
import { yuvPlanes, type YuvPlane } from "./still-frame";

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

export function paintBlinkLids(
  frame: Uint8Array,
  W: number,
  H: number,
  xy: Float32Array,
  pose: FacePose,
  m: FaceModel,
  plan: LidSkinPlan,
  occ: LidOccluders,
  still: Uint8Array,
  look: { grain: number; blur: number },
  scratch: Float32Array,
): void {
  const any = occ.some((o) => o.length > 0);
  const occluders = (e: number) => occ[e].map((p) => ({ m, tris: plan.eyeTris[e].map((t) => tri3(plan, t)), p }));
  if (any) occ.forEach((_, e) => occluders(e).forEach((o) => takeOut(frame, xy, o)));
  smoothLidSkin(frame, W, H, xy, m, plan, look.grain);
  for (const pl of yuvPlanes(W, H)) m.eyes.forEach((_, e) => softenLidEdge(frame, pl, xy, m, plan, e, look.blur));
  if (!any) return;
  const still0 = deform(m, { ...pose, blinkR: 0, blinkL: 0 }, scratch);
  occ.forEach((_, e) => occluders(e).forEach((o) => putBack(frame, still, xy, still0, o)));
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

/** Below the lid line (FaceMesh upper0, which rides on the lid edge), how far the warp's hard edge lies, × eye width (eyelid-mesh.ts EDGE_BAND). */
const EDGE_BELOW = 0.02;

/**
 * The moving lid's lower edge is cut by the warp (the swallowed eye stops there): blur it vertically with
 * the photo's own edge blur (a Gaussian of sigma `blur` px, mouth-style.ts), in proportion to how far the
 * lid has moved (none at rest), inside the eye's blink triangles only.
 */
function softenLidEdge(
  frame: Uint8Array,
  pl: YuvPlane,
  xy: Float32Array,
  m: FaceModel,
  plan: LidSkinPlan,
  e: number,
  blur: number,
): void {
  const { off, pw: W, ph: H, scale: sc } = pl;
  const eye = m.eyes[e];
  const ids = [eye.lower0[0], ...eye.upper0, eye.lower0[eye.lower0.length - 1]];
  const line = (p: Float32Array) => ids.map((i) => [p[i * 2] * sc, p[i * 2 + 1] * sc]);
  const now = line(xy),
    rest = line(m.base);
  const moved = Math.max(...now.map((q, k) => q[1] - rest[k][1]));
  if (!(moved > 0.25)) return;
  const ew = Math.hypot(now[0][0] - now[now.length - 1][0], now[0][1] - now[now.length - 1][1]);
  const sigma = Math.max(0.7, blur * sc),
    r = Math.ceil(2 * sigma);
  const kern = Array.from({ length: 2 * r + 1 }, (_, k) => Math.exp(-((k - r) ** 2) / (2 * sigma * sigma)));
  const ksum = kern.reduce((a, b) => a + b, 0);
  const below = EDGE_BELOW * ew;
  const xs = now.map((q) => q[0]);
  const bx = Math.max(0, Math.floor(Math.min(...xs))),
    bx1 = Math.min(W - 1, Math.ceil(Math.max(...xs)));
  const ys = now.map((q) => q[1]);
  const by = Math.max(r, Math.floor(Math.min(...ys)) - 2),
    by1 = Math.min(H - 1 - r, Math.ceil(Math.max(...ys) + below) + r + 2);
  const bw = bx1 - bx + 1,
    bh = by1 - by + 1;
  if (bw <= 0 || bh <= 0) return;
  const inside = new Float32Array(bw * bh);
  for (const t of plan.eyeTris[e])
    rasterMax(inside, bx, by, bw, bh, xy, sc, ...(tri3(plan, t) as [number, number, number]), 1);
  const weight = Math.min(1, moved / (2 * sc));
  const col = new Float32Array(bh + 2 * r);
  const sorted = [...now].sort((a, b) => a[0] - b[0]);
  for (let x = bx; x <= bx1; x++) {
    // The lid line at this column (straight between its points).
    let k = 0;
    while (k < sorted.length - 2 && sorted[k + 1][0] < x + 0.5) k++;
    const [p, q] = [sorted[k], sorted[k + 1]];
    const yl = p[1] + ((q[1] - p[1]) * (x + 0.5 - p[0])) / (q[0] - p[0] || 1);
    for (let j = 0; j < col.length; j++) col[j] = frame[off + (by - r + j) * W + x];
    for (let y = Math.max(by, Math.floor(yl - 1)); y <= Math.min(by1, Math.ceil(yl + below + r)); y++) {
      const w = weight * inside[(y - by) * bw + (x - bx)];
      if (!w) continue;
      let acc = 0;
      for (let j = 0; j <= 2 * r; j++) acc += kern[j] * col[y - by + j];
      const o = off + y * W + x;
      frame[o] = Math.round(frame[o] + w * (acc / ksum - frame[o]));
    }
  }
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
