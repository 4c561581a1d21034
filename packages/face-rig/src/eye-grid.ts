/** An eye grid's depth and triangles (packages/face-rig/src/eyelid-mesh.ts builds the grid). */

/** Depth of each `target` vertex: inverse-distance weighted from the `marks` (placed landmarks). */
export function interpolateDepth(
  base: Float32Array,
  z: Float32Array,
  marks: readonly number[],
  targets: readonly number[],
): void {
  for (const vi of targets) {
    let sw = 0;
    let sz = 0;
    for (const i of marks) {
      const w = 1 / (1e-3 + (base[i * 2] - base[vi * 2]) ** 2 + (base[i * 2 + 1] - base[vi * 2 + 1]) ** 2);
      sw += w;
      sz += w * z[i];
    }
    z[vi] = sz / sw;
  }
}

/**
 * Triangles of a cols × rows grid numbered row by row from `first`, plus the seams between its first row and
 * the `top` chain and between its last row and the `bottom` chain (`t` orders vertices along the eye).
 */
export function gridTriangles(
  first: number,
  cols: number,
  rows: number,
  top: number[],
  bottom: number[],
  t: (i: number) => number,
): number[] {
  const V = (r: number, k: number) => first + r * cols + k;
  const rowIds = (r: number) => Array.from({ length: cols }, (_, k) => V(r, k));
  const tris: number[] = [];
  zipper([...top], rowIds(0), t, tris);
  for (let r = 0; r < rows - 1; r++) {
    for (let k = 0; k < cols - 1; k++)
      tris.push(V(r, k), V(r, k + 1), V(r + 1, k + 1), V(r, k), V(r + 1, k + 1), V(r + 1, k));
  }
  zipper(rowIds(rows - 1), [...bottom], t, tris);
  return tris;
}

/**
 * Triangulate the strip between two chains that run the same way along the eye (both start at the same
 * end edge): advance on whichever chain's next point comes first along the eye.
 */
function zipper(a: number[], b: number[], t: (i: number) => number, out: number[]): void {
  let i = 0;
  let j = 0;
  while (i < a.length - 1 || j < b.length - 1) {
    const stepA = j === b.length - 1 || (i < a.length - 1 && t(a[i + 1]) <= t(b[j + 1]));
    if (stepA) {
      out.push(a[i], a[i + 1], b[j]);
      i++;
    } else {
      out.push(a[i], b[j + 1], b[j]);
      j++;
    }
  }
}
