/**
 * Where the portrait is cut from the source: a square framed on the face, face width 40–45 % of the
 * side, eyes 40 % from the top. The square may reach past the image edges (filled later).
 */
import type { Point3 } from "../analysis/public";

/** Face width / portrait side: 0.42, up to 0.45 (a tighter square) when that avoids padding. */
export const FACE_FRACTION = { preferred: 0.42, max: 0.45 };
/** Eye line (iris centres) as a fraction of the side from the top. */
export const EYE_LINE = 0.4;
/** Output side: never above 1024; sources that would give less are upscaled to 512 so the video
 * renderer always gets ≥ 512 px, but never upscaled beyond that. */
export const PORTRAIT_MAX_SIDE = 1024;
export const PORTRAIT_MIN_SIDE = 512;
/** A frontal face's height (forehead 10 → chin 152) is about 1.25× its width (234 → 454). */
const HEIGHT_PER_WIDTH = 1.25;

export interface PortraitFrame {
  /** Square in source pixels (integers; may start < 0 or end past the image). */
  left: number;
  top: number;
  size: number;
  /** Side of the output portrait in pixels (even). */
  output: number;
}

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Face width robust to yaw: a turned head narrows, its height does not. */
export function faceWidth(mesh: Point3[]): number {
  return Math.max(dist(mesh[234], mesh[454]), dist(mesh[10], mesh[152]) / HEIGHT_PER_WIDTH);
}

export function portraitFrame(mesh: Point3[], width: number, height: number): PortraitFrame {
  const face = faceWidth(mesh);
  const shortSide = Math.min(width, height);
  // Prefer 0.42; take a tighter square (face up to 0.45) if that keeps the square inside the image.
  let size = face / FACE_FRACTION.preferred;
  if (size > shortSide) size = Math.max(shortSide, face / FACE_FRACTION.max);
  const eyeY = (mesh[468][1] + mesh[473][1]) / 2;
  const cx = (mesh[234][0] + mesh[454][0]) / 2;
  let left = cx - size / 2;
  let top = eyeY - EYE_LINE * size;
  // Slide the square back inside the image where the framing rules allow (within ±5 % of the side).
  left = slide(left, size, width, 0.05 * size);
  top = slide(top, size, height, 0.05 * size);
  const s = Math.round(size);
  const output = 2 * Math.round(Math.min(PORTRAIT_MAX_SIDE, Math.max(PORTRAIT_MIN_SIDE, s)) / 2);
  return { left: Math.round(left), top: Math.round(top), size: s, output };
}

function slide(start: number, size: number, extent: number, slack: number): number {
  if (start < 0) return Math.min(0, start + slack);
  const over = start + size - extent;
  if (over > 0) return Math.max(start - slack, extent - size);
  return start;
}
