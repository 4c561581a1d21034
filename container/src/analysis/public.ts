/**
 * What the models measure, above media/: faces (BlazeFace + FaceMesh on the WASM backend, head pose,
 * sharpness), the person matte (segmentation refined by a guided filter) and the lip track of an audio file
 * (decoded and analysed window by window). Judging a photo by those measurements is avatar/'s.
 */
export { analyzeFaces, type Box, type DetectedFace, type RgbImage } from "./face/analyze";
export { type FaceModelSet, getHuman, warmHuman } from "./face/human";
export { floatIntMatMuls } from "./face/int-matmul";
export type { Point3 } from "./face/pose";
export { faceSharpness } from "./face/sharpness";
export { analyzeAudioFile, WindowedLipSync } from "./lip-stream";
export { applyGuided, guidedCoefficients, type Planes } from "./matte/guided-filter";
export { personMatte, portraitMatte, warmMatte } from "./matte/person-matte";
