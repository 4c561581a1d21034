/**
 * Avatar preprocessing: source bytes → portrait PNG (framed on the face), AvatarRig, cover JPEG.
 *
 *   decode + file rules (invalid_image) → face search (a ≤ 768 px copy, then full-resolution tiles when
 *   that finds nothing) → "exactly one clearly visible face" (image_quality_rejected, with the reason) →
 *   square crop from the full-resolution source → the lip- and eye-refining mesh on the final portrait (at
 *   ≤ 512 px; rig coordinates are the portrait's pixels; rig version 2) → the person matte on the portrait →
 *   PNG + cover JPEG + matte PNG.
 */
import sharp from "sharp";
import {
  analyzeFaces,
  type DetectedFace,
  type Point3,
  type RgbImage,
  type FaceModelSet,
  personMatte,
} from "../analysis/public";
import { JobFailure, looksTransient, preprocessFailed } from "../rules/public";
import type { AvatarRig } from "@avatar-video/contract";
import { cropPortrait } from "./crop";
import { decodeSource } from "./decode";
import { checkFaces, requireFaceModels } from "./check-image";
import { type PortraitFrame, portraitFrame } from "./frame";
import { buildRig } from "./build-rig";
import { encodeMatte } from "../media/public";

/**
 * FaceMesh re-runs on the portrait scaled to this side (the face is then ~215 px, still above FaceMesh's
 * 192 px input, so nothing is lost; a 1024 px portrait costs more and aliases when cut down to 192).
 */
export const RIG_ANALYSIS_SIDE = 512;
export const COVER_SIDE = 512;

export interface AvatarAssetOptions {
  signal?: AbortSignal;
}

export interface AvatarAssets {
  portraitPng: Buffer;
  rig: AvatarRig;
  coverJpeg: Buffer;
  /** The person matte (media/matte-png.ts); absent if it could not be made (then made on the Avatar's first use). */
  mattePng?: Buffer;
  timings: { decodeMs: number; faceMs: number; matteMs: number; totalMs: number };
}

export async function createAvatarAssets(bytes: Buffer, opts: AvatarAssetOptions = {}): Promise<AvatarAssets> {
  const t0 = performance.now();
  const { image } = await decodeSource(bytes);
  const decodeMs = Math.round(performance.now() - t0);
  opts.signal?.throwIfAborted();

  let faceMs = 0;
  const timedAnalyze = async (img: RgbImage, models: FaceModelSet = "standard") => {
    const t = performance.now();
    try {
      return await analyzeFaces(img, models);
    } finally {
      faceMs += performance.now() - t;
    }
  };

  try {
    await requireFaceModels();
    const assessment = await checkFaces(image, timedAnalyze);
    if (!assessment.ok || !assessment.face) throw assessment.rejection!;
    opts.signal?.throwIfAborted();

    const frame = portraitFrame(assessment.face.mesh, image.width, image.height);
    const portrait = await cropPortrait(image, frame);
    const encoded = encode(portrait); // libvips threads encode while FaceMesh runs on this one
    encoded.catch(() => undefined);

    const expected = toPortrait(assessment.face, frame);
    const rigImage = await downscale(portrait, RIG_ANALYSIS_SIDE);
    const up = portrait.width / rigImage.width;
    const again = (await timedAnalyze(rigImage, "refined")).map((f) => scaleFace(f, up));
    const refined = pickSameFace(again, expected);
    // Without the refined mesh's face (not found again), the analysis pass's points make a version 1 rig.
    const rig = buildRig(refined ?? expected, portrait.width, portrait.height, refined ? 2 : 1);
    const tm = performance.now();
    // Never a reason to refuse an Avatar: without a matte now, the first video that needs one makes it.
    const mattePng = await personMatte(portrait, rig.landmarks)
      .then((alpha) => encodeMatte(alpha, portrait.width, portrait.height))
      .catch(() => undefined);
    const matteMs = Math.round(performance.now() - tm);
    const { portraitPng, coverJpeg } = await encoded;
    const timings = { decodeMs, faceMs: Math.round(faceMs), matteMs, totalMs: Math.round(performance.now() - t0) };
    return { portraitPng, rig, coverJpeg, mattePng, timings };
  } catch (err) {
    if (err instanceof JobFailure || opts.signal?.aborted) throw err;
    throw preprocessFailed((err as Error)?.stack ?? String(err), looksTransient(err));
  }
}

async function downscale(image: RgbImage, maxSide: number): Promise<RgbImage> {
  if (Math.max(image.width, image.height) <= maxSide) return image;
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width: maxSide, height: maxSide, fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function encode(p: RgbImage): Promise<{ portraitPng: Buffer; coverJpeg: Buffer }> {
  const img = () => sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } });
  const [portraitPng, coverJpeg] = await Promise.all([
    // Level 6 instead of sharp's 9: 57 vs 85 ms on a 1024² photo for 11 % more bytes.
    img().png({ compressionLevel: 6 }).toBuffer(),
    img().resize(COVER_SIDE, COVER_SIDE).jpeg({ quality: 85 }).toBuffer(),
  ]);
  return { portraitPng, coverJpeg };
}

/** The analysis-pass face (source pixels) mapped into portrait pixels: the expected position, and the fallback. */
function toPortrait(face: DetectedFace, frame: PortraitFrame): DetectedFace {
  const k = frame.output / frame.size;
  const map = ([x, y, z]: Point3): Point3 => [(x - frame.left) * k, (y - frame.top) * k, z * k];
  const b = face.box;
  const [x, y] = map([b.x, b.y, 0]);
  return { ...face, mesh: face.mesh.map(map), box: { x, y, width: b.width * k, height: b.height * k } };
}

function scaleFace(face: DetectedFace, k: number): DetectedFace {
  if (k === 1) return face;
  const b = face.box;
  return {
    ...face,
    mesh: face.mesh.map(([x, y, z]) => [x * k, y * k, z * k]),
    box: { x: b.x * k, y: b.y * k, width: b.width * k, height: b.height * k },
  };
}

/** The face on the portrait that is the analysed one (box overlap ≥ 0.5), if FaceMesh found it again. */
function pickSameFace(faces: DetectedFace[], expected: DetectedFace): DetectedFace | undefined {
  let best: DetectedFace | undefined;
  let bestIou = 0.5;
  for (const f of faces) {
    const v = iou(f.box, expected.box);
    if (v >= bestIou) [best, bestIou] = [f, v];
  }
  return best;
}

function iou(a: DetectedFace["box"], b: DetectedFace["box"]): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
