/**
 * Image registration of the quality script's SSIM step: refines the landmark-based similarity transform
 * (frame 0 → frame k) by matching the pixels of the face outside the mouth (Gauss–Newton on the summed
 * squared luma difference, coarse then fine).
 *
 * Why: FaceMesh's landmarks move as a whole when the mouth opens — on a frame whose upper face is
 * pixel-identical to frame 0 it reports the eyes ≈ 4 px away and the face 0.6 % larger — so an alignment
 * from landmarks alone misplaces unchanged pixels and SSIM counts the detector's error as a rendering
 * defect (docs/animation.md, "How it is measured").
 */

export type Similarity = [number, number, number, number, number, number];

/** Separable box blur of radius r, applied twice (≈ Gaussian σ ≈ 0.8·r). */
function blur(src: ArrayLike<number>, W: number, H: number, r: number): Float32Array {
  let a = Float32Array.from(src);
  let b = new Float32Array(W * H);
  for (let pass = 0; pass < 4; pass++) {
    const horiz = pass % 2 === 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let s = 0;
        let n = 0;
        for (let k = -r; k <= r; k++) {
          const xx = horiz ? x + k : x;
          const yy = horiz ? y : y + k;
          if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
          s += a[yy * W + xx];
          n++;
        }
        b[y * W + x] = s / n;
      }
    }
    [a, b] = [b, a];
  }
  return a;
}

/** Crop [x0, x1) × [y0, y1) of a W-wide plane. */
function crop(src: ArrayLike<number>, W: number, x0: number, y0: number, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = src[(y + y0) * W + x + x0];
  return out;
}

/**
 * Refine `T0` (reference pixel → image pixel) so that `img` sampled through it matches `ref` over the
 * `mask` pixels inside `box`. Returns the refined transform (T0 itself if the refinement diverges).
 */
export function refineSimilarity(
  ref: Uint8Array,
  img: Uint8Array,
  W: number,
  H: number,
  mask: Uint8Array,
  box: { x0: number; y0: number; x1: number; y1: number },
  T0: Similarity,
): Similarity {
  // Work on the face's neighbourhood only (the transform moves it a few pixels at most).
  const m = 24;
  const x0 = Math.max(0, box.x0 - m),
    y0 = Math.max(0, box.y0 - m);
  const x1 = Math.min(W, box.x1 + m),
    y1 = Math.min(H, box.y1 + m);
  const w = x1 - x0,
    h = y1 - y0;
  const R0 = crop(ref, W, x0, y0, w, h);
  const I0 = crop(img, W, x0, y0, w, h);
  const cx = (box.x0 + box.x1) / 2,
    cy = (box.y0 + box.y1) / 2;
  // Parameters around the box centre: q = [a, b, tx, ty] with p' = [a −b; b a](p − c) + c + t.
  let a = T0[0],
    b = T0[3];
  let tx = T0[0] * cx + T0[1] * cy + T0[2] - cx,
    ty = T0[3] * cx + T0[4] * cy + T0[5] - cy;
  const pts: number[] = [];
  for (let y = box.y0; y < box.y1; y += 2) for (let x = box.x0; x < box.x1; x += 2) if (mask[y * W + x]) pts.push(x, y);
  for (const r of [3, 1]) {
    const Rb = blur(R0, w, h, r);
    const Ib = blur(I0, w, h, r);
    const at = (x: number, y: number) => {
      const lx = x - x0,
        ly = y - y0;
      const ix = Math.max(0, Math.min(w - 2, Math.floor(lx))),
        iy = Math.max(0, Math.min(h - 2, Math.floor(ly)));
      const fx = Math.min(1, Math.max(0, lx - ix)),
        fy = Math.min(1, Math.max(0, ly - iy));
      const o = iy * w + ix;
      return (Ib[o] * (1 - fx) + Ib[o + 1] * fx) * (1 - fy) + (Ib[o + w] * (1 - fx) + Ib[o + w + 1] * fx) * fy;
    };
    for (let it = 0; it < 8; it++) {
      const A = new Float64Array(16);
      const g = new Float64Array(4);
      for (let k = 0; k < pts.length; k += 2) {
        const px = pts[k] - cx,
          py = pts[k + 1] - cy;
        const qx = a * px - b * py + cx + tx,
          qy = b * px + a * py + cy + ty;
        const v = at(qx, qy);
        const ix = at(qx + 0.5, qy) - at(qx - 0.5, qy);
        const iy = at(qx, qy + 0.5) - at(qx, qy - 0.5);
        let res = v - Rb[(pts[k + 1] - y0) * w + pts[k] - x0];
        res = Math.max(-20, Math.min(20, res)); // blinks and the jaw edge must not pull the face
        const J = [ix * px + iy * py, -ix * py + iy * px, ix, iy];
        for (let i = 0; i < 4; i++) {
          g[i] += J[i] * res;
          for (let j = 0; j < 4; j++) A[i * 4 + j] += J[i] * J[j];
        }
      }
      const d = solve4(A, g);
      if (!d) break;
      a -= d[0];
      b -= d[1];
      tx -= d[2];
      ty -= d[3];
      if (Math.abs(d[2]) + Math.abs(d[3]) < 0.01 && Math.abs(d[0]) + Math.abs(d[1]) < 1e-5) break;
    }
  }
  const shift = Math.hypot(tx - (T0[0] * cx + T0[1] * cy + T0[2] - cx), ty - (T0[3] * cx + T0[4] * cy + T0[5] - cy));
  if (!Number.isFinite(shift) || shift > 12 || Math.abs(Math.hypot(a, b) - Math.hypot(T0[0], T0[3])) > 0.05) return T0;
  return [a, -b, cx + tx - a * cx + b * cy, b, a, cy + ty - b * cx - a * cy];
}

/** Solve the 4×4 system A x = g (Gaussian elimination with partial pivoting); undefined if singular. */
function solve4(A: Float64Array, g: Float64Array): number[] | undefined {
  const M = Array.from({ length: 4 }, (_, i) => [A[i * 4], A[i * 4 + 1], A[i * 4 + 2], A[i * 4 + 3], g[i]]);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (Math.abs(M[p][c]) < 1e-9) return undefined;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k < 5; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[4] / M[i][i]);
}
