/**
 * Lid skin in a blink (docs/animation.md, "Blinks up close"). Closing the eye stretches the lid skin down
 * over the opening, up to ≈ 2× along the eye's normal; a bilinear warp turns every lash tip, crease fold and
 * eyeshadow speck of that skin into a vertical streak. A real closed lid is smooth skin. So where the mesh
 * stretches the skin, the painted luma is smoothed across the streaks (along the rows, radius growing with
 * the stretch) and the photo's grain is put back, after the warp: an unstretched lid is left as painted.
 */
import { type FaceModel, grainNoise, rasterMax } from "@avatar-video/face-rig";
import { yuvPlanes, type YuvPlane } from "./still-frame";

export interface LidSkinPlan {
  /** Triangles (index triples) that a blink deforms. */
  tris: Int32Array;
  restArea: Float32Array;
  /** Per eye: the triangles of that eye (offsets into `tris` / 3). */
  eyeTris: [number[], number[]];
}

/** Stretch (deformed ÷ rest area) where smoothing starts and where it is complete. */
const STRETCH = { from: 1.1, full: 1.5 };
/** Largest smoothing radius, × the eye's width (≈ 6 px on a 768² canvas). */
const MAX_RADIUS = 0.08;

export const area = (p: Float32Array, a: number, b: number, c: number) =>
  Math.abs(
    (p[b * 2] - p[a * 2]) * (p[c * 2 + 1] - p[a * 2 + 1]) - (p[c * 2] - p[a * 2]) * (p[b * 2 + 1] - p[a * 2 + 1]),
  ) / 2;

export function lidSkinPlan(m: FaceModel): LidSkinPlan {
  const tris: number[] = [];
  const restArea: number[] = [];
  const eyeTris: [number[], number[]] = [[], []];
  m.eyes.forEach((eye, e) => {
    const moved = new Set(eye.idx);
    for (let t = 0; t < m.tris.length; t += 3) {
      const [a, b, c] = [m.tris[t], m.tris[t + 1], m.tris[t + 2]];
      if (!moved.has(a) && !moved.has(b) && !moved.has(c)) continue;
      const r = area(m.base, a, b, c);
      if (r < 0.5) continue;
      eyeTris[e].push(tris.length / 3);
      tris.push(a, b, c);
      restArea.push(r);
    }
  });
  return { tris: Int32Array.from(tris), restArea: Float32Array.from(restArea), eyeTris };
}

/**
 * Smooth the stretched lid skin of both eyes in `frame` (yuv420p, W × H: luma and both chroma planes, whose
 * eyeshadow tints streak too), for vertex positions `xy`. `grain`: the photo's luma noise (mouth-style.ts),
 * put back on the luma only.
 */
export function smoothLidSkin(
  frame: Uint8Array,
  W: number,
  H: number,
  xy: Float32Array,
  m: FaceModel,
  plan: LidSkinPlan,
  grain: number,
): void {
  const planes = yuvPlanes(W, H);
  for (let e = 0; e < 2; e++) {
    const list = plan.eyeTris[e];
    const ratio = list.map(
      (t) => area(xy, plan.tris[t * 3], plan.tris[t * 3 + 1], plan.tris[t * 3 + 2]) / plan.restArea[t],
    );
    if (!ratio.some((r) => r > STRETCH.from)) continue;
    const up = m.eyes[e].upper0;
    const eyeWidth = Math.hypot(
      xy[up[0] * 2] - xy[up[up.length - 1] * 2],
      xy[up[0] * 2 + 1] - xy[up[up.length - 1] * 2 + 1],
    );
    planes.forEach((plane, i) =>
      smoothPlane(
        frame,
        plane,
        i === 0 ? grain : 0,
        xy,
        plan,
        list,
        ratio,
        Math.max(1, MAX_RADIUS * eyeWidth * plane.scale),
      ),
    );
  }
}

function smoothPlane(
  frame: Uint8Array,
  P: YuvPlane,
  grain: number,
  xy: Float32Array,
  plan: LidSkinPlan,
  list: number[],
  ratio: number[],
  rMax: number,
): void {
  // Box of the stretched triangles, in plane pixels.
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  list.forEach((t, k) => {
    if (ratio[k] <= STRETCH.from) return;
    for (let j = 0; j < 3; j++) {
      const v = plan.tris[t * 3 + j];
      x0 = Math.min(x0, xy[v * 2] * P.scale);
      x1 = Math.max(x1, xy[v * 2] * P.scale);
      y0 = Math.min(y0, xy[v * 2 + 1] * P.scale);
      y1 = Math.max(y1, xy[v * 2 + 1] * P.scale);
    }
  });
  const bx = Math.max(0, Math.floor(x0) - 1),
    by = Math.max(0, Math.floor(y0));
  const bw = Math.min(P.pw, Math.ceil(x1) + 2) - bx,
    bh = Math.min(P.ph, Math.ceil(y1) + 1) - by;
  if (bw <= 0 || bh <= 0) return;
  // Weight per pixel: the largest stretch of the triangles covering it, as 0…1, softened.
  const w = new Float32Array(bw * bh);
  list.forEach((t, k) => {
    const s = (ratio[k] - STRETCH.from) / (STRETCH.full - STRETCH.from);
    if (s > 0)
      rasterMax(
        w,
        bx,
        by,
        bw,
        bh,
        xy,
        P.scale,
        plan.tris[t * 3],
        plan.tris[t * 3 + 1],
        plan.tris[t * 3 + 2],
        Math.min(1, s),
      );
  });
  soften(w, bw, bh, Math.max(1, Math.round(rMax)));
  // Write only inside the blink's triangles: the warp repaints those every frame, so nothing smoothed here
  // can outlive the blink in a pooled frame buffer (restores only cover what the warp wrote).
  const inside = new Float32Array(bw * bh);
  for (const t of list)
    rasterMax(inside, bx, by, bw, bh, xy, P.scale, plan.tris[t * 3], plan.tris[t * 3 + 1], plan.tris[t * 3 + 2], 1);
  for (let i = 0; i < w.length; i++) w[i] *= inside[i];
  const row = new Float32Array(bw + 1);
  for (let y = 0; y < bh; y++) {
    const o = P.off + (by + y) * P.pw + bx;
    for (let x = 0; x < bw; x++) row[x + 1] = row[x] + frame[o + x];
    for (let x = 0; x < bw; x++) {
      const wt = w[y * bw + x];
      if (wt <= 0.01) continue;
      const r = Math.max(1, Math.round(rMax * wt));
      const lo = Math.max(0, x - r),
        hi = Math.min(bw - 1, x + r);
      const mean = (row[hi + 1] - row[lo]) / (hi - lo + 1);
      // Averaging 2r+1 pixels removes most of the photo's grain too: put that share back.
      const g = grain ? grain * wt * Math.sqrt(1 - 1 / (2 * r + 1)) * grainNoise(bx + x, by + y) : 0;
      const v = frame[o + x] + wt * (mean - frame[o + x]) + g;
      frame[o + x] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  }
}

/** Box blur (radius r) of a bw × bh weight map in place, rows then columns: triangle borders fade out. */
function soften(w: Float32Array, bw: number, bh: number, r: number): void {
  const tmp = new Float32Array(Math.max(bw, bh));
  const pass = (n: number, lines: number, at: (line: number, i: number) => number) => {
    for (let l = 0; l < lines; l++) {
      for (let i = 0; i < n; i++) tmp[i] = w[at(l, i)];
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let k = -r; k <= r; k++) sum += tmp[Math.min(n - 1, Math.max(0, i + k))];
        w[at(l, i)] = sum / (2 * r + 1);
      }
    }
  };
  pass(bw, bh, (y, x) => y * bw + x);
  pass(bh, bw, (x, y) => y * bw + x);
}
