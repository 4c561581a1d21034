/**
 * Every threshold an Avatar source image is judged by, in one place. The file rules are the spec's; the
 * face rules make "exactly one clearly visible face" measurable. Each value was measured on real photos
 * (test/fixtures/portraits, the @vladmandic/face-api demo photos, FG-net Talking Face frames) and on
 * blurred, downscaled, padded and occluded variants; docs/avatar-image-rules.md has the tables.
 */
import { SOURCE_IMAGE } from "@avatar-video/contract";

// ── File (spec "Source image rules") ────────────────────────────────────────────────────────────────
export const MAX_SOURCE_BYTES = SOURCE_IMAGE.maxBytes;
export const MIN_SHORT_SIDE = SOURCE_IMAGE.minShortSide;
export const MAX_SOURCE_PIXELS = SOURCE_IMAGE.maxPixels;

// ── A face is *visible* (it counts toward "exactly one") when it passes this lower bar. ──────────────
/** Detector confidence. Real faces 0.34–0.96 (0.34–0.39: looking steeply down, half cut by the frame);
 * the best non-face detections (stairs, textures, objects; probed with a 0.05 floor) reached 0.12. */
export const VISIBLE_MIN_DETECTOR_SCORE = 0.25;
/** FaceMesh confidence. Real faces 0.87–1.00; non-face detections at most 0.63. */
export const VISIBLE_MIN_MESH_SCORE = 0.75;
/** Width relative to the largest visible face: faces in group photos measured 0.74–1.00 of the largest. */
export const VISIBLE_MIN_RELATIVE_WIDTH = 0.25;
/** Below this many source pixels wide a detection is a distant bystander at most (half the clear bar). */
export const VISIBLE_MIN_WIDTH_PX = 32;

// ── The single visible face must then be *clear*. ────────────────────────────────────────────────────
/** Detector confidence. Portraits 0.85–0.95, faces in group photos 0.65–0.95, 64 px faces 0.88–0.96. */
export const CLEAR_MIN_DETECTOR_SCORE = 0.6;
/** FaceMesh confidence: 1.00 on every usable face (64 px faces included); 0.87–0.95 at yaw 51°;
 * 0.26–0.38 when half the face is painted over. */
export const CLEAR_MIN_MESH_SCORE = 0.9;
/**
 * Face width (tight box of the 478 mesh points: ear to ear) in source pixels. At 64 px FaceMesh still
 * places the lips and eyelids within 0.03 interocular distances of where it puts them on the full-size
 * face (0.02–0.06 on six faces); at 40 px the error reaches 0.04–0.075 and the portrait is a > 5× upscale.
 */
export const CLEAR_MIN_FACE_WIDTH_PX = 64;
/**
 * Head pose limits (degrees). Portraits measured |yaw| ≤ 20, pitch −18…+6, |roll| ≤ 11; faces in party
 * photos reach yaw ±35…51 (one cheek hidden), pitch −32, roll 44. Beyond these the mouth and eyelid
 * warps of a single photo look wrong. (Pitch reads ~3° low on frontal faces: the mesh's own tilt.)
 */
export const CLEAR_MAX_YAW = 30;
export const CLEAR_MAX_PITCH = 30;
export const CLEAR_MAX_ROLL = 35;
/**
 * Normalised Laplacian variance of the inner face resampled to 96 px wide (analysis/face/sharpness.ts). Unaltered
 * faces 0.029–0.75 (64 px faces 0.029–0.065); Gaussian blur of 0.9 % of the face width gives 0.011–0.033,
 * 1.4–1.6 % gives 0.005–0.015. The bar sits between the two, at every face size from 64 px up.
 */
export const CLEAR_MIN_SHARPNESS = 0.016;

// ── Where faces are searched ─────────────────────────────────────────────────────────────────────────
/**
 * First pass: the whole photo at ≤ 768 px (BlazeFace sees 256² anyway). It finds faces down to ~1/10 of
 * the photo's longer side.
 */
export const ANALYSIS_MAX_SIDE = 768;
/**
 * Second pass, only when the first finds no face: overlapping tiles of this many source pixels, analysed
 * at full resolution, so a 64 px face is ≥ 25 px in BlazeFace's 256² input (measured: found from 40 px in
 * a 512² photo). Larger tiles follow (×2.5) for faces between the levels.
 */
export const TILE_SIDE = 640;
/** Tiles overlap by this share of their side: any face up to 0.3 × tile lies wholly inside one tile. */
export const TILE_OVERLAP = 0.3;
/** Bound on the second pass (≈ 80 ms per tile): a huge photo is searched with coarser tiles instead. */
export const MAX_TILES = 40;
