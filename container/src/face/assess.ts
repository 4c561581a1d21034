/**
 * The spec's "exactly one clearly visible face", made measurable. Every threshold below was measured
 * on real photos (test/fixtures/portraits, the @vladmandic/face-api demo photos, FG-net Talking Face
 * frames) and on blurred/upscaled derivatives; docs/avatar-image-rules.md has the tables.
 */
import type { DetectedFace, RgbImage } from "./analyze";
import { faceSharpness } from "./sharpness";

// ── A face is *visible* (it counts toward "exactly one") when it passes this lower bar. ──────────────
/** Detector confidence. Real faces measured 0.52–0.96, including a half face cut by the frame (0.52). */
export const VISIBLE_MIN_DETECTOR_SCORE = 0.4;
/** FaceMesh confidence. Real faces 0.59–1.00; no detection at all on 8 face-free photos and textures. */
export const VISIBLE_MIN_MESH_SCORE = 0.5;
/** Width relative to the largest visible face: group-photo faces measured 0.71–1.0 of the largest. */
export const VISIBLE_MIN_RELATIVE_WIDTH = 0.25;
/** Below this many pixels wide a detection is a distant bystander at most. */
export const VISIBLE_MIN_WIDTH_PX = 32;

// ── The single visible face must then be *clear*. ────────────────────────────────────────────────────
/** Detector confidence. Frontal real faces 0.68–0.96; faces looking steeply down 0.53. */
export const CLEAR_MIN_DETECTOR_SCORE = 0.6;
/** FaceMesh confidence: 1.00 on every usable face; 0.80 on a face turned 47°. */
export const CLEAR_MIN_MESH_SCORE = 0.9;
/** Face (mesh box) width / the image's shorter side. Portraits 0.30–0.46; faces in group shots 0.11–0.17. */
export const CLEAR_MIN_FACE_FRACTION = 0.1;
/** Face width in pixels: below this FaceMesh points get coarse and the portrait would be mostly upscaled. */
export const CLEAR_MIN_FACE_WIDTH_PX = 100;
/** Head pose limits (degrees). Usable portraits measured |yaw| ≤ 27, pitch −27…+11, |roll| ≤ 28. */
export const CLEAR_MAX_YAW = 30;
export const CLEAR_MAX_PITCH = 30;
export const CLEAR_MAX_ROLL = 35;
/**
 * Normalised Laplacian variance of the inner face at 96 px (see sharpness.ts). Real faces 0.0185–0.31
 * (softest: motion-blurred faces in a party photo); Gaussian blur σ=3 px on ~220 px faces 0.0104–0.0144,
 * σ≥4 ≤ 0.0094; 5× upscales 0.0157–0.0245.
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
