/**
 * What a face model reads from a rendered frame (docs/performance.md, "Measured"): MediaPipe's attention mesh
 * (the renderer's "refined" set: FaceMesh's plain brows barely follow a brow raise, and read an inner-brow
 * raise backwards) for the expression's landmarks and the head pose, Human's emotion model (its own
 * `emotion.json`) for what the face looks like it feels.
 */
import { analyzeFaces, getHuman } from "../../container/src/analysis/public";

export interface FaceReading {
  /** Mouth corners above the lips' middle, × the corner distance (a smile is positive). */
  corners: number;
  /** Brows (their middle) above the eyes' corner lines — the corners never move — × the eye distance (between the eyes' centres). */
  brows: number;
  /** Inner brow ends above the outer ones, × the eye distance. */
  innerBrows: number;
  /** Eye opening (upper to lower lid middle), × the eye distance; both eyes' mean. */
  eyes: number;
  /** Inner lips apart, × the corner distance (the mouth's opening). */
  gap: number;
  /** Head pose, degrees. */
  yaw: number;
  pitch: number;
  /** The face's box in the frame (pixels). */
  box: { x: number; y: number; width: number; height: number };
}

/** The landmark figures and head pose of the frame's largest face, or undefined when none is found. */
export async function readFace(rgb: Buffer, width: number, height: number): Promise<FaceReading | undefined> {
  const [face] = await analyzeFaces({ data: rgb, width, height }, "refined");
  if (!face) return undefined;
  const m = face.mesh;
  const Y = (i: number) => m[i][1];
  const dist = (a: number, b: number) => Math.hypot(m[a][0] - m[b][0], m[a][1] - m[b][1]);
  // The eye distance: between the eyes' centres (the middle of each eye's corners).
  const io = Math.hypot(
    (m[263][0] + m[362][0] - m[33][0] - m[133][0]) / 2,
    (m[263][1] + m[362][1] - m[33][1] - m[133][1]) / 2,
  );
  return {
    corners: ((Y(13) + Y(14)) / 2 - (Y(61) + Y(291)) / 2) / dist(61, 291),
    brows: ((Y(33) + Y(133)) / 2 - Y(105) + ((Y(263) + Y(362)) / 2 - Y(334))) / 2 / io,
    innerBrows: (Y(70) - Y(107) + (Y(300) - Y(336))) / 2 / io,
    eyes: ((Y(145) - Y(159)) / 2 + (Y(374) - Y(386)) / 2) / io,
    gap: (Y(14) - Y(13)) / dist(61, 291),
    yaw: face.pose.yaw,
    pitch: face.pose.pitch,
    box: face.box,
  };
}

/** Emotion labels of Human's model. */
export const EMOTIONS = ["angry", "disgust", "fear", "happy", "sad", "surprise", "neutral"] as const;
export type Emotions = Record<(typeof EMOTIONS)[number], number>;

/** Probabilities of Human's emotion model for the frame's largest face (each frame on its own). */
export async function readEmotion(rgb: Buffer, width: number, height: number): Promise<Emotions | undefined> {
  const human = await getHuman("standard");
  const input = human.tf.tensor3d(new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.length), [height, width, 3], "int32");
  try {
    const result = await human.detect(
      input as never,
      {
        face: { emotion: { enabled: true, minConfidence: 0, skipFrames: 0, skipTime: 0 } },
      } as never,
    );
    const face = result.face[0];
    if (!face?.emotion) return undefined;
    const out = Object.fromEntries(EMOTIONS.map((e) => [e, 0])) as Emotions;
    for (const { emotion, score } of face.emotion) out[emotion as keyof Emotions] = score;
    return out;
  } finally {
    human.tf.dispose(input);
  }
}
