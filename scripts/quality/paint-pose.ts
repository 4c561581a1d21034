/**
 * Fixed face poses painted on a portrait with the renderer's own parts — mesh, painter, the photo's mouth
 * colours — at 768², without audio or a video: for reading a pose with the detectors (pose-gap.ts, tests) and looking at it (blink-poses.ts).
 */
import { buildFaceModel, deform, type FaceModel, type FacePose, photoMouthColors } from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";
import sharp from "sharp";
import { composeCanvas, FramePainter, rgbToYuv420, yuv420ToRgb } from "../../container/src/paint/public";

/** The poses the viseme classes aim at (packages/motion-model/src/phonetic-mouth.ts), at full loudness. */
export const MOUTH_POSES: Array<[string, Partial<FacePose>]> = [
  ["rest", {}],
  ["open vowel", { open: 0.9, spread: 0.1, relax: 1 }],
  ["m/b/p", { press: 1, relax: 1 }],
  ["f/v", { open: 0.05, spread: 0.1, tuck: 1, relax: 1 }],
  ["oo", { open: 0.2, round: 1, relax: 1 }],
  ["ee", { open: 0.25, spread: 1, relax: 1 }],
];

export const POSE_SIZE = 768;
const SETTINGS = {
  width: POSE_SIZE,
  height: POSE_SIZE,
  fit: "crop",
  backgroundColor: "#000000",
  backgroundFit: "cover",
} as const;

export interface PosePainter {
  model: FaceModel;
  /** Paint `pose`: its vertex positions and the frame as RGB24 (POSE_SIZE²). */
  paint(pose: FacePose): { positions: Float32Array; rgb: Buffer };
  close(): void;
}

export async function posePainter(portraitPng: Buffer, rig: AvatarRig): Promise<PosePainter> {
  const S = POSE_SIZE;
  const { rgb, placement } = await composeCanvas(portraitPng, rig, undefined, SETTINGS);
  const model = buildFaceModel(rig, placement);
  const painter = await FramePainter.create(
    model,
    photoMouthColors({ data: rgb, width: S, height: S, channels: 3 }, model),
    rgbToYuv420(rgb, S, S),
    S,
    S,
    {
      threads: 1,
      poolSize: 1,
    },
  );
  return {
    model,
    paint(pose) {
      const positions = deform(model, pose, new Float32Array(model.count * 2));
      painter.paint(positions, pose, 0);
      return { positions, rgb: Buffer.from(yuv420ToRgb(painter.pool[0], S, S).buffer) };
    },
    close: () => painter.close(),
  };
}

/** A w×h crop at (x0, y0) of a painted pose's RGB24 frame, enlarged k× nearest-neighbour, as PNG. */
export function poseCrop(rgb: Buffer, x0: number, y0: number, w: number, h: number, k: number): Promise<Buffer> {
  const img = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    img.set(rgb.subarray(((y0 + y) * POSE_SIZE + x0) * 3, ((y0 + y) * POSE_SIZE + x0 + w) * 3), y * w * 3);
  return sharp(img, { raw: { width: w, height: h, channels: 3 } })
    .resize(w * k, h * k, { kernel: "nearest" })
    .png()
    .toBuffer();
}
