/**
 * The face model built from an Avatar's rig and its deformation by a pose: one implementation shared by the
 * video renderer (container/) and the browser motion client (packages/motion-client), so a rendered video
 * and a live Avatar move alike.
 */
export { deform, NEUTRAL_POSE, type FacePose } from "./deform";
export { expressionShape, type ExpressionShape, type ExpressionWeights } from "./expression";
export type { LidShape } from "./eyelids";
export { buildFaceModel, FACE_POINTS, type FaceModel, type Placement } from "./face-model";
export { mouthColors, type MouthColors } from "./mouth-colors";
export { photoMouthColors, type Pixels } from "./photo-colors";
export { SILHOUETTE } from "./facemesh-topology";
export { boxMean } from "./box-mean";
export { matteForeground } from "./matte-foreground";
export { grainNoise, lumaOf, samplePhoto, yuv420FromPixels, yuvFrameLayout, type YuvFrameLayout } from "./yuv-photo";
export { mouthStyle, type MouthStyle } from "./mouth-style";
export { innerLips, measureOpening, paintRect, shade, type Rect } from "./mouth-shade";
export type { Interior } from "./mouth-layers";
export { grow, rasterMax, runs, triangleRows } from "./raster";
export { eyewearMask, type EyewearMask, fillUnder, relaxFill } from "./eyewear-mask";
