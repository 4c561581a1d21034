/**
 * A blink's lids after the warp (docs/animation.md, "Blinks up close"): occluders crossing the lid are
 * taken out of the moving lid's texture (lid-occluders.ts), the stretched lid skin is smoothed
 * (lid-skin.ts), and the occluders are put back where the head alone carries them. Every write lies inside
 * the blink's triangles, which the warp repaints every frame.
 */
import { deform, type FaceModel, type FacePose } from "@avatar-video/face-rig";
import { bary, tri3, type LidOccluders, type OccluderPlane } from "./lid-occluders";
import { rasterMax, smoothLidSkin, type LidSkinPlan } from "./lid-skin";

/** Bilinear sample of a box of values (bw × bh) at box coordinates (x, y), clamped to the box. */
function sample(get: (x: number, y: number) => number, bw: number, bh: number, x: number, y: number): number {
  const cx = Math.min(bw - 1, Math.max(0, x)), cy = Math.min(bh - 1, Math.max(0, y));
  const x0 = Math.min(bw - 2, Math.floor(cx)), y0 = Math.min(bh - 2, Math.floor(cy));
  const fx = cx - x0, fy = cy - y0;
  return (get(x0, y0) * (1 - fx) + get(x0 + 1, y0) * fx) * (1 - fy) + (get(x0, y0 + 1) * (1 - fx) + get(x0 + 1, y0 + 1) * fx) * fy;
}

export function paintBlinkLids(
  frame: Uint8Array, W: number, H: number, xy: Float32Array, pose: FacePose, m: FaceModel,
  plan: LidSkinPlan, occ: LidOccluders, still: Uint8Array, grain: number, seed: number, scratch: Float32Array,
): void {
  const any = occ.some((o) => o.length > 0);
  if (any) occ.forEach((planes, e) => planes.forEach((p) => unoccludeLid(frame, xy, m, plan, plan.eyeTris[e], p)));
  smoothLidSkin(frame, W, H, xy, m, plan, grain, seed);
  if (!any) return;
  const still0 = deform(m, { ...pose, blinkR: 0, blinkL: 0 }, scratch);
  occ.forEach((planes, e) => planes.forEach((p) => putBack(frame, still, xy, still0, plan, plan.eyeTris[e], p)));
}

/** Lid pixels whose source lies under an occluder take the filled-in still instead. */
function unoccludeLid(frame: Uint8Array, xy: Float32Array, m: FaceModel, plan: LidSkinPlan, list: number[], p: OccluderPlane): void {
  const { scale: k, bw, bh } = p;
  const clean = (x: number, y: number) => p.clean[y * bw + x];
  for (const t of list) {
    const v = tri3(plan, t);
    if (v.every((i) => xy[i * 2] === m.base[i * 2] && xy[i * 2 + 1] === m.base[i * 2 + 1])) continue;
    const xs = v.map((i) => xy[i * 2] * k), ys = v.map((i) => xy[i * 2 + 1] * k);
    const xa = Math.max(0, Math.floor(Math.min(...xs))), xb = Math.min(p.pw - 1, Math.ceil(Math.max(...xs)));
    const ya = Math.max(0, Math.floor(Math.min(...ys))), yb = Math.min(p.ph - 1, Math.ceil(Math.max(...ys)));
    for (let y = ya; y <= yb; y++) for (let x = xa; x <= xb; x++) {
      const b = bary(xy, v, k, x + 0.5, y + 0.5);
      if (!b) continue;
      const sx = b[0] * m.base[v[0] * 2] * k + b[1] * m.base[v[1] * 2] * k + b[2] * m.base[v[2] * 2] * k - 0.5 - p.bx;
      const sy = b[0] * m.base[v[0] * 2 + 1] * k + b[1] * m.base[v[1] * 2 + 1] * k + b[2] * m.base[v[2] * 2 + 1] * k - 0.5 - p.by;
      const ix = Math.round(sx), iy = Math.round(sy);
      if (ix < 0 || iy < 0 || ix >= bw || iy >= bh || !p.alpha[iy * bw + ix]) continue;
      frame[p.off + y * p.pw + x] = Math.round(sample(clean, bw, bh, sx, sy));
    }
  }
}

/** Composite the occluder's still pixels at their blink-free positions (`still0`), inside the blink's triangles only. */
function putBack(frame: Uint8Array, still: Uint8Array, xy: Float32Array, still0: Float32Array, plan: LidSkinPlan, list: number[], p: OccluderPlane): void {
  const { scale: k, bw, bh } = p;
  const inside = new Float32Array(bw * bh);
  for (const t of list) rasterMax(inside, p.bx, p.by, bw, bh, xy, k, ...(tri3(plan, t) as [number, number, number]), 1);
  const S = (x: number, y: number) => still[p.off + (p.by + y) * p.pw + p.bx + x];
  for (let n = 0; n < p.pix.length; n++) {
    const i = p.pix[n], v = tri3(plan, p.tri[n]);
    const b0 = p.bary[n * 3], b1 = p.bary[n * 3 + 1], b2 = p.bary[n * 3 + 2];
    const qx = (b0 * still0[v[0] * 2] + b1 * still0[v[1] * 2] + b2 * still0[v[2] * 2]) * k - p.bx;
    const qy = (b0 * still0[v[0] * 2 + 1] + b1 * still0[v[1] * 2 + 1] + b2 * still0[v[2] * 2 + 1]) * k - p.by;
    const rx = Math.floor(qx), ry = Math.floor(qy);
    if (rx < 0 || ry < 0 || rx >= bw || ry >= bh || !inside[ry * bw + rx]) continue;
    // The still's value at the point that lands on pixel (rx, ry): its own position shifted by the rounding.
    const val = sample(S, bw, bh, (i % bw) + rx + 0.5 - qx, Math.floor(i / bw) + ry + 0.5 - qy);
    const o = p.off + (p.by + ry) * p.pw + p.bx + rx;
    const a = p.alpha[i];
    frame[o] = Math.round(frame[o] + a * (val - frame[o]));
  }
}
