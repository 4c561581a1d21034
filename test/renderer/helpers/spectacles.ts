/**
 * Spectacles drawn on a test still's luma (test/renderer/lid-occluders.test.ts, expression-eyewear.test.ts):
 * a 4–5 px dark rim around each eye, a bridge and temples, at canvas size S × S; and the stills to draw them on.
 */
import { buildFaceModel, type FaceModel } from "@avatar-video/face-rig";
import { composeCanvas, rgbToYuv420 } from "../../../container/src/paint/public";
import { testAvatar } from "./media-avatar";

/** The test portraits' stills (yuv420p) and face models on an S × S canvas, cropped to the face. */
export async function testStills(S: number): Promise<Record<string, { model: FaceModel; still: Uint8Array }>> {
  const settings = { width: S, height: S, fit: "crop", backgroundColor: "#000000", backgroundFit: "cover" } as const;
  const stills: Record<string, { model: FaceModel; still: Uint8Array }> = {};
  for (const name of ["single-phone", "single-camera"] as const) {
    const a = await testAvatar(name);
    const { rgb, placement } = await composeCanvas(a.portraitPng, a.rig, undefined, settings);
    stills[name] = { model: buildFaceModel(a.rig, placement), still: rgbToYuv420(rgb, S, S) };
  }
  return stills;
}

/** The still with spectacles drawn on its luma: a 4–5 px dark rim around each eye, a bridge and temples; returns the rim's pixels. */
export function withGlasses(m: FaceModel, still: Uint8Array, S: number): { frame: Uint8Array; rim: Uint8Array } {
  const frame = Uint8Array.from(still);
  const rim = new Uint8Array(S * S);
  const P = (i: number) => [m.base[i * 2], m.base[i * 2 + 1]];
  const eyes = [
    [33, 133],
    [263, 362],
  ].map(([o, i]) => {
    const [ox, oy] = P(o),
      [ix, iy] = P(i);
    const w = Math.hypot(ix - ox, iy - oy);
    return { cx: (ox + ix) / 2, cy: (oy + iy) / 2, a: 0.75 * w, b: 0.55 * w, outer: ox, w };
  });
  const seg = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => {
    const t = Math.max(
      0,
      Math.min(1, ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)),
    );
    return Math.hypot(x - x0 - t * (x1 - x0), y - y0 - t * (y1 - y0));
  };
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      let d = Infinity;
      for (const e of eyes) {
        d = Math.min(d, Math.abs(Math.hypot((x - e.cx) / e.a, (y - e.cy) / e.b) - 1) * e.b);
        const side = Math.sign(e.outer - e.cx);
        d = Math.min(d, seg(x, y, e.cx + side * e.a, e.cy, e.cx + side * (e.a + 1.5 * e.w), e.cy - 0.1 * e.w));
      }
      d = Math.min(
        d,
        seg(
          x,
          y,
          eyes[0].cx + Math.sign(eyes[1].cx - eyes[0].cx) * eyes[0].a,
          eyes[0].cy,
          eyes[1].cx - Math.sign(eyes[1].cx - eyes[0].cx) * eyes[1].a,
          eyes[1].cy,
        ),
      );
      const k = Math.max(0, Math.min(1, 3 - d));
      if (k <= 0) continue;
      frame[y * S + x] = Math.round(frame[y * S + x] + k * (25 - frame[y * S + x]));
      if (k >= 1) rim[y * S + x] = 1;
    }
  return { frame, rim };
}
