/**
 * The spec's "exactly one clearly visible face", made measurable. The thresholds live in
 * rules/image-rules.ts; a failed rule becomes a refusal (rules/avatar-refusals.ts) whose sentence names the
 * measured value and the threshold.
 */
import {
  CLEAR_MAX_PITCH,
  CLEAR_MAX_ROLL,
  CLEAR_MAX_YAW,
  CLEAR_MIN_DETECTOR_SCORE,
  CLEAR_MIN_FACE_WIDTH_PX,
  CLEAR_MIN_MESH_SCORE,
  CLEAR_MIN_SHARPNESS,
  VISIBLE_MIN_DETECTOR_SCORE,
  VISIBLE_MIN_MESH_SCORE,
  VISIBLE_MIN_RELATIVE_WIDTH,
  VISIBLE_MIN_WIDTH_PX,
  faceBlurred,
  faceCutOff,
  faceOccluded,
  faceTilted,
  faceTooSmall,
  faceTurned,
  multipleFaces,
  noFace,
  type JobFailure,
} from "../rules/public";
import { type Box, type DetectedFace, type RgbImage, faceSharpness } from "../analysis/public";

/** What was measured on the subject face (source pixels, degrees). */
export interface FaceMeasurements {
  box: Box;
  widthPx: number;
  sharpness: number;
  yawDeg: number;
  pitchDeg: number;
  rollDeg: number;
  detectorScore: number;
  meshScore: number;
}

export interface PortraitAssessment {
  ok: boolean;
  /** The subject: the one visible face (also set when it fails the clear bar). */
  face?: DetectedFace;
  visibleFaces: number;
  /** The first rule the photo breaks (absent when ok). */
  rejection?: JobFailure;
  measurements?: FaceMeasurements;
}

export function visibleFaces(faces: DetectedFace[]): DetectedFace[] {
  const candidates = faces.filter(
    (f) =>
      f.detectorScore >= VISIBLE_MIN_DETECTOR_SCORE &&
      f.score >= VISIBLE_MIN_MESH_SCORE &&
      f.box.width >= VISIBLE_MIN_WIDTH_PX,
  );
  const largest = Math.max(0, ...candidates.map((f) => f.box.width));
  return candidates.filter((f) => f.box.width >= VISIBLE_MIN_RELATIVE_WIDTH * largest);
}

/**
 * `faces` as found on `image` (find.ts), both in source pixels. `smallestFindablePx`: faces narrower
 * than this may have been missed (said in the no_face sentence).
 */
export async function assessPortrait(
  image: RgbImage,
  faces: DetectedFace[],
  smallestFindablePx = CLEAR_MIN_FACE_WIDTH_PX,
): Promise<PortraitAssessment> {
  const visible = visibleFaces(faces);
  if (visible.length === 0) return { ok: false, visibleFaces: 0, rejection: noVisibleFace(faces, smallestFindablePx) };
  if (visible.length > 1) return { ok: false, visibleFaces: visible.length, rejection: multipleFaces(visible.length) };
  const face = visible[0];
  const { yaw, pitch, roll } = face.pose;
  const measurements: FaceMeasurements = {
    box: face.box,
    widthPx: face.box.width,
    sharpness: (await faceSharpness(image, face.box)).normalized,
    yawDeg: yaw,
    pitchDeg: pitch,
    rollDeg: roll,
    detectorScore: face.detectorScore,
    meshScore: face.score,
  };
  const rejection = firstBrokenRule(face, measurements, image);
  return { ok: !rejection, face, visibleFaces: 1, measurements, ...(rejection ? { rejection } : {}) };
}

/** Most actionable first: a cut or tiny face explains everything after it. */
function firstBrokenRule(face: DetectedFace, m: FaceMeasurements, image: RgbImage): JobFailure | undefined {
  const cut = cutOff(face, image);
  if (cut) return faceCutOff(cut.side, cut.px);
  if (m.widthPx < CLEAR_MIN_FACE_WIDTH_PX) return faceTooSmall(m.widthPx);
  if (Math.abs(m.yawDeg) > CLEAR_MAX_YAW) return faceTurned("yaw", m.yawDeg);
  if (Math.abs(m.pitchDeg) > CLEAR_MAX_PITCH) return faceTurned("pitch", m.pitchDeg);
  if (Math.abs(m.rollDeg) > CLEAR_MAX_ROLL) return faceTilted(m.rollDeg);
  if (m.meshScore < CLEAR_MIN_MESH_SCORE) return faceOccluded("mesh", m.meshScore);
  if (m.detectorScore < CLEAR_MIN_DETECTOR_SCORE) return faceOccluded("detector", m.detectorScore);
  if (m.sharpness < CLEAR_MIN_SHARPNESS) return faceBlurred(m.sharpness);
  return undefined;
}

/** The side where the mesh reaches furthest outside the image, if any. */
function cutOff(face: DetectedFace, image: RgbImage): { side: string; px: number } | undefined {
  let worst: { side: string; px: number } | undefined;
  const consider = (side: string, px: number) => {
    if (px > 0 && (!worst || px > worst.px)) worst = { side, px };
  };
  for (const [x, y] of face.mesh) {
    consider("left", -x);
    consider("top", -y);
    consider("right", x - image.width);
    consider("bottom", y - image.height);
  }
  return worst;
}

/**
 * No face passed the visibility bar. A confident detection whose features FaceMesh could not trace is
 * a covered or unclear face, and a confident tiny one is too small; anything else is no face at all.
 */
function noVisibleFace(faces: DetectedFace[], smallestFindablePx: number): JobFailure {
  const sure = faces.filter((f) => f.detectorScore >= CLEAR_MIN_DETECTOR_SCORE);
  const untraced = sure.find((f) => f.score < VISIBLE_MIN_MESH_SCORE && f.box.width >= VISIBLE_MIN_WIDTH_PX);
  if (untraced) return faceOccluded("mesh", untraced.score);
  const tiny = sure.find((f) => f.score >= VISIBLE_MIN_MESH_SCORE);
  if (tiny) return faceTooSmall(tiny.box.width);
  return noFace(smallestFindablePx);
}
