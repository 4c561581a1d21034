/**
 * The Avatar's person matte: alpha (0..255) of the person — hair, head, neck, shoulders, clothes — at the
 * portrait's full resolution.
 *
 *   selfie segmentation on a 256² copy → colour-guided filter: coefficients solved on a 256² copy of the
 *   photo, applied at full resolution, so the edge follows the photo's own edges (strands, soft outlines)
 *   → the face oval held opaque (a face is never see-through, whatever the model thought of a glare)
 *   → the near-certain ends snapped to exactly 0 and 255.
 */
import sharp from "sharp";
import { SILHOUETTE } from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";
import type { RgbImage } from "../face/analyze";
import { applyGuided, guidedCoefficients, type Planes } from "./guided-filter";
import { encodeMatte } from "../../media/public";
import { segmentPerson, SEGMENT_SIDE } from "./segment";

/** Window radius (cells of the 256² grid: ≈ 16 px at 1024²) and ridge of the guided filter (colours 0..1). */
const GUIDE_RADIUS = 4;
const GUIDE_EPS = 1e-3;
/** Filter outputs below LOW are background, above HIGH person; linear between. */
const LOW = 0.04;
const HIGH = 0.96;
/** The held face oval is the FaceMesh silhouette shrunk towards its centre by this share (it ends at the hairline/jaw). */
const FACE_HOLD = 0.9;

export async function personMatte(portrait: RgbImage, landmarks: AvatarRig["landmarks"]): Promise<Uint8Array> {
  const { width: W, height: H } = portrait;
  const mask = await segmentPerson(portrait);
  const guide = await guidePlanes(portrait);
  const q = applyGuided(
    guidedCoefficients(guide, mask, SEGMENT_SIDE, SEGMENT_SIDE, GUIDE_RADIUS, GUIDE_EPS),
    portrait.data,
    W,
    H,
  );
  const alpha = new Uint8Array(W * H);
  for (let i = 0; i < q.length; i++) {
    const a = (q[i] - LOW) / (HIGH - LOW);
    alpha[i] = a <= 0 ? 0 : a >= 1 ? 255 : Math.round(a * 255);
  }
  holdFace(alpha, W, H, landmarks);
  return alpha;
}

/** The stored matte (PNG) of a stored portrait: for Avatars made before mattes, on their first use. */
export async function portraitMatte(portraitPng: Buffer, landmarks: AvatarRig["landmarks"]): Promise<Buffer> {
  const { data, info } = await sharp(portraitPng).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const alpha = await personMatte({ data, width: info.width, height: info.height }, landmarks);
  return encodeMatte(alpha, info.width, info.height);
}

/**
 * Loads the segmentation model and runs the whole matte once on a blank image, so the first Avatar does
 * not pay for model loading and JIT compilation (about as long as the matte itself).
 */
export async function warmMatte(): Promise<void> {
  const side = 512;
  const blank = { data: Buffer.alloc(side * side * 3, 128), width: side, height: side };
  const landmarks: AvatarRig["landmarks"] = Array.from({ length: 478 }, (_, i) => [
    side / 2 + Math.cos(i) * 100,
    side / 2 + Math.sin(i) * 100,
    0,
  ]);
  await encodeMatte(await personMatte(blank, landmarks), side, side);
}

/** The photo on the segmentation grid, as float planes. */
async function guidePlanes(p: RgbImage): Promise<Planes> {
  const small = await sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } })
    .resize(SEGMENT_SIDE, SEGMENT_SIDE, { fit: "fill" })
    .raw()
    .toBuffer();
  const n = SEGMENT_SIDE * SEGMENT_SIDE;
  const planes: Planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) planes[c][i] = small[i * 3 + c] / 255;
  return planes;
}

/** Sets alpha 255 inside the shrunk face silhouette (even-odd scanline fill). */
function holdFace(alpha: Uint8Array, W: number, H: number, landmarks: AvatarRig["landmarks"]): void {
  const pts = SILHOUETTE.map((i) => landmarks[i]);
  const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const poly = pts.map(([x, y]) => [cx + (x - cx) * FACE_HOLD, cy + (y - cy) * FACE_HOLD] as const);
  const y0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p[1]))));
  const y1 = Math.min(H - 1, Math.ceil(Math.max(...poly.map((p) => p[1]))));
  for (let y = y0; y <= y1; y++) {
    const yc = y + 0.5;
    const xs: number[] = [];
    for (let k = 0; k < poly.length; k++) {
      const [ax, ay] = poly[k];
      const [bx, by] = poly[(k + 1) % poly.length];
      if (ay <= yc !== by <= yc) xs.push(ax + ((yc - ay) * (bx - ax)) / (by - ay));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k] - 0.5));
      const to = Math.min(W, Math.ceil(xs[k + 1] - 0.5));
      alpha.fill(255, y * W + from, y * W + to);
    }
  }
}
