/** Head pose from the 3D FaceMesh points, in the rig's convention (degrees). */
export type Point3 = [number, number, number];

export interface HeadPose {
  /** Positive = the face turned toward the image's right. */
  yaw: number;
  /** Positive = looking up. */
  pitch: number;
  /** Positive = head tilted clockwise on screen. */
  roll: number;
}

const DEG = 180 / Math.PI;

function sub(a: Point3, b: Point3): Point3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function cross(a: Point3, b: Point3): Point3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/**
 * Face axes from wide baselines: x from the right to the left cheek silhouette (234 → 454), y from
 * forehead to chin (10 → 152). Image coordinates are y-down and FaceMesh z grows away from the camera,
 * so the facing direction is −(x × y). `mesh` z must be in the same pixel scale as x and y.
 */
export function headPose(mesh: Point3[]): HeadPose {
  const x = sub(mesh[454], mesh[234]);
  const y = sub(mesh[152], mesh[10]);
  const n = cross(x, y);
  const facing: Point3 = [-n[0], -n[1], -n[2]];
  const toward = -facing[2]; // component pointing at the camera
  return {
    yaw: Math.atan2(facing[0], toward) * DEG,
    pitch: Math.atan2(-facing[1], toward) * DEG,
    roll: Math.atan2(x[1], x[0]) * DEG,
  };
}
