/** The planes of the still yuv420p frame (the photo on the canvas), for the lid painting. Sampling it as RGB: face-rig yuv-photo.ts. */

/** One plane of a yuv420p frame: byte offset, width, height, and the scale of canvas coordinates on it. */
export interface YuvPlane {
  off: number;
  pw: number;
  ph: number;
  scale: number;
}

/** Luma, then both chroma planes (half resolution) of a W × H yuv420p frame. */
export function yuvPlanes(W: number, H: number): [YuvPlane, YuvPlane, YuvPlane] {
  const cw = W >> 1,
    ch = H >> 1;
  return [
    { off: 0, pw: W, ph: H, scale: 1 },
    { off: W * H, pw: cw, ph: ch, scale: 0.5 },
    { off: W * H + cw * ch, pw: cw, ph: ch, scale: 0.5 },
  ];
}
