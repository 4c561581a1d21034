/**
 * Pixels of a frame, above media/: the static canvas (portrait placed on the background colour or image,
 * the person layer cut out by its matte), and the frame painter that warps the face mesh into pooled
 * yuv420p frames and paints the mouth interior and the lids, on worker threads sharing one WASM kernel.
 */
export { composePerson } from "./compose-person";
export { composeCanvas, decodeBackground, parseHexColor, placePortrait, type CanvasSettings } from "./compose";
export { findEyewear } from "./eyewear";
export { lidOccluders } from "./lid-occluders";
export { lidSkinPlan, smoothLidSkin } from "./lid-skin";
export { drawMouthInterior } from "./mouth-interior";
export { FramePainter } from "./painter";
export { blendPerson, type PersonMode } from "./person-blend";
export { rgbToYuv420, yuv420ToRgb, yuvLayout } from "./yuv";
