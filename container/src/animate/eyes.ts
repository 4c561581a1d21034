/**
 * Closed-eye lash line. When a blink closes the eye, the warp collapses the eye opening and stretches the
 * upper lid down to the lower lid; FaceMesh's lower-lid points sit on the waterline, so a sliver of white
 * sclera just below them would stay visible. A soft dark lash line drawn along the closed lid (as real
 * closed eyes show) covers it. Drawn into the yuv420p frame like the mouth interior.
 */
import type { YuvFrameLayout } from "./mouth";
import type { Rect } from "./warp";
import { smoothstep } from "@avatar-video/motion-model";

/**
 * Draw a tapered soft line along the polyline `pts` ([x, y] flat, canvas px), `thickness` px at the
 * middle, shifted `down` px along +y, with opacity `alpha`, colour `rgb`. Returns the luma rect touched.
 */
export function drawLashLine(
  frame: Uint8Array,
  L: YuvFrameLayout,
  pts: Float32Array,
  thickness: number,
  down: number,
  alpha: number,
  rgb: [number, number, number],
  clip: Rect,
): Rect {
  const none = { x0: 0, y0: 0, x1: 0, y1: 0 };
  if (!(alpha > 0)) return none;
  const n = pts.length / 2;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, pts[i * 2]);
    maxX = Math.max(maxX, pts[i * 2]);
    minY = Math.min(minY, pts[i * 2 + 1] + down);
    maxY = Math.max(maxY, pts[i * 2 + 1] + down);
  }
  const pad = thickness + 2;
  const x0 = Math.max(clip.x0, (Math.floor(minX - pad) & ~1));
  const x1 = Math.min(clip.x1, (Math.ceil(maxX + pad) + 1) & ~1);
  const y0 = Math.max(clip.y0, (Math.floor(minY - pad) & ~1));
  const y1 = Math.min(clip.y1, (Math.ceil(maxY + pad) + 1) & ~1);
  if (x1 <= x0 || y1 <= y0) return none;
  // Cumulative length for the taper.
  const cum = new Float64Array(n);
  for (let i = 1; i < n; i++) cum[i] = cum[i - 1] + Math.hypot(pts[i * 2] - pts[i * 2 - 2], pts[i * 2 + 1] - pts[i * 2 - 1]);
  const total = cum[n - 1] || 1;
  const cover = (px: number, py: number): number => {
    let best = Infinity;
    let along = 0;
    for (let i = 0; i < n - 1; i++) {
      const ax = pts[i * 2];
      const ay = pts[i * 2 + 1] + down;
      const vx = pts[i * 2 + 2] - ax;
      const vy = pts[i * 2 + 3] + down - ay;
      const l2 = vx * vx + vy * vy || 1;
      let t = ((px - ax) * vx + (py - ay) * vy) / l2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = ax + vx * t - px;
      const dy = ay + vy * t - py;
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        along = cum[i] + t * Math.sqrt(l2);
      }
    }
    const s = along / total; // 0..1 corner to corner
    const taper = Math.sin(Math.PI * Math.min(1, Math.max(0, s))) ** 0.6;
    const half = 0.5 * thickness * (0.35 + 0.65 * taper);
    return (1 - smoothstep(half - 0.6, half + 0.6, Math.sqrt(best))) * alpha;
  };
  const Yc = 16 + (47 * rgb[0] + 157 * rgb[1] + 16 * rgb[2]) / 256;
  const Uc = 128 + (-26 * rgb[0] - 86 * rgb[1] + 112 * rgb[2]) / 256;
  const Vc = 128 + (112 * rgb[0] - 102 * rgb[1] - 10 * rgb[2]) / 256;
  const W = L.width;
  for (let y = y0; y < y1; y++) {
    let o = y * W + x0;
    for (let x = x0; x < x1; x++, o++) {
      const a = cover(x + 0.5, y + 0.5);
      if (a <= 0) continue;
      frame[o] = (frame[o] + (Yc - frame[o]) * a + 0.5) | 0;
    }
  }
  const cw = W >> 1;
  const uOff = L.ySize;
  const vOff = L.ySize + L.cSize;
  for (let cy = y0 >> 1; cy < y1 >> 1; cy++) {
    let o = cy * cw + (x0 >> 1);
    for (let cx = x0 >> 1; cx < x1 >> 1; cx++, o++) {
      const a = cover(cx * 2 + 1, cy * 2 + 1);
      if (a <= 0) continue;
      frame[uOff + o] = (frame[uOff + o] + (Uc - frame[uOff + o]) * a + 0.5) | 0;
      frame[vOff + o] = (frame[vOff + o] + (Vc - frame[vOff + o]) * a + 0.5) | 0;
    }
  }
  return { x0, y0, x1, y1 };
}
