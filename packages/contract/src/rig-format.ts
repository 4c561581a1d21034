/**
 * The Avatar's rig: everything the video renderer needs to animate one portrait.
 * Produced by Avatar preprocessing, stored as JSON next to the portrait image in R2.
 * All coordinates are pixels of the stored portrait image (origin top-left).
 */
import { z } from "zod";

export interface AvatarRig {
  /**
   * 1: the landmarks are Human's FaceMesh (lips and eyes not refined); 2: the lip and eye contours and the
   * irises come from MediaPipe's refining attention mesh (container/src/analysis/face/human.ts). Same 478 points,
   * same use: a version 1 rig renders as it always did.
   */
  version: 1 | 2;
  /** Size of the stored portrait image. */
  portrait: { width: number; height: number };
  /** FaceMesh points (468 mesh + 10 iris = 478) as [x, y, z]; z in the same pixel scale, camera-relative. */
  landmarks: [number, number, number][];
  /** Tight face box from the detector. */
  faceBox: { x: number; y: number; width: number; height: number };
  /** Head pose in degrees (positive yaw = turned to the image's right, pitch = looking up, roll = clockwise). */
  pose: { yaw: number; pitch: number; roll: number };
  /** Measurements taken at rest, used to scale the animation. */
  metrics: {
    /** Distance between the outer eye corners (33 and 263). */
    interocular: number;
    /** Mouth width between the corners (61 and 291). */
    mouthWidth: number;
    /** Gap between inner lips at rest (13 to 14); > 0 when the photo shows an open mouth. */
    lipGap: number;
    /** Eye openings at rest (upper to lower lid, 159-145 and 386-374). */
    eyeOpening: { right: number; left: number };
  };
}

const finite = z.number().finite();
const point = z.tuple([finite, finite, finite]);

/** The rig as the renderer accepts it back from storage: anything off is `invalid_manifest`. */
export const AvatarRigSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  portrait: z.object({ width: z.number().int().min(1), height: z.number().int().min(1) }),
  landmarks: z.array(point).min(468),
  faceBox: z.object({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
  pose: z.object({ yaw: finite, pitch: finite, roll: finite }),
  metrics: z.object({
    interocular: finite,
    mouthWidth: finite,
    lipGap: finite,
    eyeOpening: z.object({ right: finite, left: finite }),
  }),
}) satisfies z.ZodType<AvatarRig>;
