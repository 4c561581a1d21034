/**
 * A blink's lids after the warp (docs/animation.md, "Blinks up close"): occluders crossing the lid are
 * taken out of the moving lid's texture (lid-occluders.ts), the stretched lid skin is smoothed
 * (lid-skin.ts), the moving lid edge is softened to the photo's own blur, and the occluders are put back
 * where the head alone carries them. Every write lies inside the blink's triangles, which the warp repaints
 * every frame.
 */
import { deform, type FaceModel, type FacePose, rasterMax, type Rect } from "@avatar-video/face-rig";
import { type LidOccluders, tri3 } from "./lid-occluders";
import { smoothLidSkin, type LidSkinPlan } from "./lid-skin";
import { putBack, takeOut } from "./occluder-carry";
import { even } from "./paint-band";
import { yuvPlanes, type YuvPlane } from "./still-frame";
import { EMPTY_RECT } from "./warp";

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

/** Luma rect (even) around the blink's triangles at vertex positions `xy`: where the lids were painted. */
export function lidsRect(plan: LidSkinPlan, xy: Float32Array): Rect {
  const t = plan.tris;
  const r = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let k = 0; k < t.length; k++) {
    const x = xy[t[k] * 2];
    const y = xy[t[k] * 2 + 1];
    r.x0 = Math.min(r.x0, Math.floor(x) - 1);
    r.y0 = Math.min(r.y0, Math.floor(y) - 1);
    r.x1 = Math.max(r.x1, Math.ceil(x) + 2);
    r.y1 = Math.max(r.y1, Math.ceil(y) + 2);
  }
  return t.length ? even(r) : EMPTY_RECT;
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
