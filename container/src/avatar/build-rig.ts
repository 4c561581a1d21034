/** Builds the AvatarRig from the face found on the final portrait (coordinates = portrait pixels). */
import type { DetectedFace, Point3 } from "../analysis/public";
import type { AvatarRig } from "@avatar-video/contract";
import { avatarGenerationFailed } from "../rules/public";

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1]);
/** Two decimals: sub-pixel enough for warping, and keeps rig.json around 20 KB. */
const r2 = (v: number) => Math.round(v * 100) / 100 || 0; // || 0: no -0 in the JSON

/** `version` 2 when the face was read by the refining mesh (analyzeFaces(…, "refined")), else 1. */
export function buildRig(
  face: DetectedFace,
  width: number,
  height: number,
  version: AvatarRig["version"] = 2,
): AvatarRig {
  const m = face.mesh;
  const rig: AvatarRig = {
    version,
    portrait: { width, height },
    landmarks: m.map(([x, y, z]) => [r2(x), r2(y), r2(z)]),
    faceBox: { x: r2(face.box.x), y: r2(face.box.y), width: r2(face.box.width), height: r2(face.box.height) },
    pose: { yaw: r2(face.pose.yaw), pitch: r2(face.pose.pitch), roll: r2(face.pose.roll) },
    metrics: {
      interocular: r2(dist(m[33], m[263])),
      mouthWidth: r2(dist(m[61], m[291])),
      lipGap: r2(dist(m[13], m[14])),
      eyeOpening: { right: r2(dist(m[159], m[145])), left: r2(dist(m[386], m[374])) },
    },
  };
  const problem = checkRig(rig);
  if (problem) throw avatarGenerationFailed(`rig: ${problem}`);
  return rig;
}

/** The rig's invariants: 478 finite points inside the portrait, positive face measurements. */
export function checkRig(rig: AvatarRig): string | undefined {
  const { width, height } = rig.portrait;
  if (rig.landmarks.length !== 478) return `${rig.landmarks.length} landmarks`;
  for (const [x, y, z] of rig.landmarks) {
    if (![x, y, z].every(Number.isFinite)) return "non-finite landmark";
    if (x < 0 || y < 0 || x > width || y > height) return `landmark (${x}, ${y}) outside ${width}x${height}`;
  }
  const { interocular, mouthWidth } = rig.metrics;
  if (!(interocular > 0 && mouthWidth > 0)) return "degenerate face measurements";
  return undefined;
}
