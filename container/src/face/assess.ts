/**
 * The spec's "exactly one clearly visible face", made measurable. Every threshold below was measured
 * on real photos (test/fixtures/portraits, the @vladmandic/face-api demo photos, FG-net Talking Face
 * frames) and on blurred/upscaled derivatives; docs/avatar-image-rules.md has the tables.
 */
import type { DetectedFace, RgbImage } from "./analyze";
import { faceSharpness } from "./sharpness";

// ── A face is *visible* (it counts toward "exactly one") when it passes this lower bar. ──────────────
/** Detector confidence. Real faces 0.34–0.95 (0.34–0.39: looking steeply down, half cut by the frame);
 * the best non-face detections (stairs, textures, objects; probed with a 0.05 floor) reached 0.12. */
export const VISIBLE_MIN_DETECTOR_SCORE = 0.25;
/** FaceMesh confidence. Real faces 0.87–1.00; non-face detections at most 0.63. */
export const VISIBLE_MIN_MESH_SCORE = 0.75;
/** Width relative to the largest visible face: faces in group photos measured 0.74–1.00 of the largest. */
export const VISIBLE_MIN_RELATIVE_WIDTH = 0.25;
/** Below this many pixels wide (in the ≤ 768 px analysis copy) a detection is a distant bystander at most. */
export const VISIBLE_MIN_WIDTH_PX = 32;

// ── The single visible face must then be *clear*. ────────────────────────────────────────────────────
/** Detector confidence. Portraits 0.85–0.95, faces in group photos 0.65–0.95; 0.34–0.39 as above. */
export const CLEAR_MIN_DETECTOR_SCORE = 0.6;
/** FaceMesh confidence: 1.00 on every usable face; 0.87–0.95 on a face turned 51°. */
export const CLEAR_MIN_MESH_SCORE = 0.9;
/** Face (mesh box) width / the image's shorter side. Portraits 0.30–0.45; faces in group photos 0.11–0.17. */
export const CLEAR_MIN_FACE_FRACTION = 0.1;
/** Face width in source pixels: below this the mesh gets coarse and the portrait mostly upscaled. */
export const CLEAR_MIN_FACE_WIDTH_PX = 100;
/**
 * Head pose limits (degrees). Portraits measured |yaw| ≤ 15, pitch −18…+6, |roll| ≤ 11; faces in party
 * photos reach yaw ±35…51 (one cheek hidden), pitch −32, roll 44. Beyond these the mouth and eyelid
 * warps of a single photo look wrong. (Pitch reads ~3° low on frontal faces: the mesh's own tilt.)
 */
export const CLEAR_MAX_YAW = 30;
export const CLEAR_MAX_PITCH = 30;
export const CLEAR_MAX_ROLL = 35;
/**
 * Normalised Laplacian variance of the inner face at ≤ 96 px (sharpness.ts), on the ≤ 768 px analysis
 * copy. Unaltered real faces 0.050–0.75; on ~210–250 px faces Gaussian blur σ=2 px gives 0.019–0.033,
 * σ=3 0.010–0.015, σ≥4 ≤ 0.0093; 5× upscales 0.016–0.024. The bar sits between σ=2 and σ=3.
 */
export const CLEAR_MIN_SHARPNESS = 0.016;

export interface PortraitAssessment {
  ok: boolean;
  /** The subject: the one visible face (also set when it fails the clear bar). */
  face?: DetectedFace;
  visibleFaces: number;
  /** Machine-readable reasons it failed (logs only; clients get the spec message). */
  reasons: string[];
  /** faceWidth in source pixels. */
  measurements?: { faceFraction: number; faceWidth: number; sharpness: number };
}

export function visibleFaces(faces: DetectedFace[]): DetectedFace[] {
  const candidates = faces.filter(
    (f) => f.detectorScore >= VISIBLE_MIN_DETECTOR_SCORE && f.score >= VISIBLE_MIN_MESH_SCORE && f.box.width >= VISIBLE_MIN_WIDTH_PX,
  );
  const largest = Math.max(0, ...candidates.map((f) => f.box.width));
  return candidates.filter((f) => f.box.width >= VISIBLE_MIN_RELATIVE_WIDTH * largest);
}

/**
 * `faces` as found by analyzeFaces on `image`. `sourceScale` = source pixels per `image` pixel when the
 * analysis ran on a downscaled copy (the pixel-size rule is about the source).
 */
export async function assessPortrait(image: RgbImage, faces: DetectedFace[], sourceScale = 1): Promise<PortraitAssessment> {
  const visible = visibleFaces(faces);
  if (visible.length === 0) return { ok: false, visibleFaces: 0, reasons: ["no_face"] };
  if (visible.length > 1) return { ok: false, visibleFaces: visible.length, reasons: ["multiple_faces"] };
  const face = visible[0];
  const reasons: string[] = [];
  const shortSide = Math.min(image.width, image.height);
  const faceFraction = face.box.width / shortSide;
  if (face.detectorScore < CLEAR_MIN_DETECTOR_SCORE) reasons.push("low_detector_score");
  if (face.score < CLEAR_MIN_MESH_SCORE) reasons.push("low_mesh_score");
  if (faceFraction < CLEAR_MIN_FACE_FRACTION || face.box.width * sourceScale < CLEAR_MIN_FACE_WIDTH_PX) reasons.push("face_too_small");
  if (!face.mesh.every(([x, y]) => x >= 0 && y >= 0 && x <= image.width && y <= image.height)) reasons.push("face_cut_off");
  if (Math.abs(face.pose.yaw) > CLEAR_MAX_YAW) reasons.push("yaw");
  if (Math.abs(face.pose.pitch) > CLEAR_MAX_PITCH) reasons.push("pitch");
  if (Math.abs(face.pose.roll) > CLEAR_MAX_ROLL) reasons.push("roll");
  const sharpness = (await faceSharpness(image, face.box)).normalized;
  if (sharpness < CLEAR_MIN_SHARPNESS) reasons.push("blurry");
  return {
    ok: reasons.length === 0,
    face,
    visibleFaces: 1,
    reasons,
    measurements: { faceFraction, faceWidth: face.box.width * sourceScale, sharpness },
  };
}
