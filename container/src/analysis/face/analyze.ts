/** Finds every face in an RGB image and describes it: scores, tight box, 478 mesh points, head pose. */
import type { Human } from "@vladmandic/human";
import { type FaceModelSet, withHuman } from "./human";
import { headPose, type HeadPose, type Point3 } from "./pose";

export type { HeadPose, Point3 } from "./pose";

/** Raw interleaved RGB, 3 bytes per pixel, rows top to bottom. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  /** FaceMesh confidence that the crop holds a face (0..1). */
  score: number;
  /** BlazeFace detector confidence (0..1). */
  detectorScore: number;
  /** Tight box around the 478 points, in image pixels (may reach outside the image). */
  box: Box;
  /** 468 mesh + 10 iris points [x, y, z] in image pixels; z in the same scale, negative = nearer. */
  mesh: Point3[];
  pose: HeadPose;
}

/**
 * All faces, largest first, read by the `models` set (human.ts: "refined" refines the lip and eye contours).
 * Calls are serialised (see withHuman).
 */
export async function analyzeFaces(image: RgbImage, models: FaceModelSet = "standard"): Promise<DetectedFace[]> {
  const { width, height, data } = image;
  if (data.length !== width * height * 3) throw new Error(`analyzeFaces: expected ${width}x${height} RGB`);
  return withHuman((human) => detect(human, image), models);
}

async function detect(human: Human, image: RgbImage): Promise<DetectedFace[]> {
  const { width, height, data } = image;
  const meshInput = human.models.models.facemesh?.inputs[0]?.shape?.[2] ?? 192;
  // BlazeFace squeezes the whole frame into 256²: pad to a square (right/bottom, so coordinates are
  // unchanged) or wide and tall photos get faces too distorted to detect. (Human's own `square`
  // option mis-scales the boxes in 3.3.6.)
  const side = Math.max(width, height);
  const tf = human.tf;
  const input = tf.tidy(() => {
    const t = tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [height, width, 3], "int32");
    return side === width && side === height
      ? t
      : tf.pad(
          t,
          [
            [0, side - height],
            [0, side - width],
            [0, 0],
          ],
          0,
        );
  });
  let result: Awaited<ReturnType<Human["detect"]>>;
  try {
    result = await human.detect(input as never);
  } finally {
    tf.dispose(input);
  }
  if (result.error) throw new Error(`face analysis failed: ${result.error}`);
  const faces: DetectedFace[] = [];
  for (const f of result.face) {
    if (f.mesh.length < 478) continue;
    // Human truncates x/y to integers (a floor for positive values): +0.5 removes the bias. Its z is in
    // FaceMesh input units; the crop it ran on spans boxRaw[2] of the image width.
    const zScale = (f.boxRaw[2] * side) / meshInput;
    const mesh = f.mesh.map((p) => [p[0] + 0.5, p[1] + 0.5, (p[2] ?? 0) * zScale] as Point3);
    faces.push({ score: f.faceScore, detectorScore: f.boxScore, box: bounds(mesh), mesh, pose: headPose(mesh) });
  }
  return faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
}

function bounds(points: Point3[]): Box {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const [x, y] of points) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
