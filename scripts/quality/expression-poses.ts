/**
 * Each expression painted on the sample portraits with the renderer's own mesh and painter (docs/performance.md),
 * columns neutral, happy, serious, surprised, sad, for looking at them side by side: the face (brows to chin,
 * 1×) and the mouth (2×) at rest and mid-word (an open vowel), the brows and eyes at rest (2×).
 *
 *   tsx scripts/quality/expression-poses.ts --inputs DIR --out DIR [--portraits phone,teeth] [--intensity 0.6]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp, { type OverlayOptions } from "sharp";
import { DRAWN_EXPRESSIONS } from "@avatar-video/contract";
import { type FacePose, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { NO_EXPRESSION } from "@avatar-video/motion-model";
import { POSE_SIZE as S, posePainter } from "./paint-pose";
import { sampleAvatar, samplePortraits } from "./sample-portraits";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    out: { type: "string" },
    portraits: { type: "string", default: "phone,medium,teeth,glasses" },
    intensity: { type: "string", default: "0.6" },
    scale: { type: "string", default: "2" },
  },
});
if (!values.inputs || !values.out) throw new Error("usage: expression-poses.ts --inputs DIR --out DIR");
mkdirSync(values.out, { recursive: true });
const intensity = Number(values.intensity);
const K = Number(values.scale);
const NAMES = ["neutral", ...DRAWN_EXPRESSIONS] as const;
const MID_WORD: Partial<FacePose> = { open: 0.55, spread: 0.2, relax: 1 };

interface Box {
  x0: number;
  y0: number;
  w: number;
  h: number;
}

/** A sheet: one row per pose, one column per expression, each tile the box scaled K× (nearest). */
async function sheet(rows: Buffer[][], box: Box, k: number, file: string): Promise<void> {
  const tw = box.w * k + 4;
  const th = box.h * k + 4;
  const tiles: OverlayOptions[] = [];
  for (const [r, row] of rows.entries())
    for (const [c, rgb] of row.entries()) {
      const input = await sharp(rgb, { raw: { width: S, height: S, channels: 3 } })
        .extract({ left: box.x0, top: box.y0, width: box.w, height: box.h })
        .resize(box.w * k, box.h * k, { kernel: "nearest" })
        .png()
        .toBuffer();
      tiles.push({ input, left: c * tw, top: r * th });
    }
  await sharp({ create: { width: rows[0].length * tw, height: rows.length * th, channels: 3, background: "#fff" } })
    .composite(tiles)
    .png()
    .toFile(file);
}

const clampBox = (x0: number, y0: number, x1: number, y1: number): Box => {
  const bx = Math.max(0, Math.round(x0));
  const by = Math.max(0, Math.round(y0));
  return { x0: bx, y0: by, w: Math.min(S, Math.round(x1)) - bx, h: Math.min(S, Math.round(y1)) - by };
};

const images = await samplePortraits(values.inputs);
for (const name of values.portraits!.split(",")) {
  const { png, rig } = await sampleAvatar(values.inputs, name, images[name]);
  const painter = await posePainter(png, rig);
  const m = painter.model;
  const io = m.interocular;
  const X = (i: number) => m.base[i * 2];
  const Y = (i: number) => m.base[i * 2 + 1];
  const cx = (X(33) + X(263)) / 2;
  const browTop = Math.min(...m.brows.map(Y));
  const eyeLow = Math.max(Y(145), Y(374));
  const face = clampBox(cx - 0.95 * io, browTop - 0.35 * io, cx + 0.95 * io, Y(152) + 0.1 * io);
  const eyes = clampBox(cx - 0.85 * io, browTop - 0.15 * io, cx + 0.85 * io, eyeLow + 0.25 * io);
  const hw = m.mouth.halfWidth;
  const mouth = clampBox(m.mouth.ox - 1.7 * hw, m.mouth.oy - 1.1 * hw, m.mouth.ox + 1.7 * hw, m.mouth.oy + 1.0 * hw);
  const rows = [{}, MID_WORD].map((extra) =>
    NAMES.map((expr) => {
      const expression = expr === "neutral" ? undefined : { ...NO_EXPRESSION, [expr]: intensity };
      return painter.paint({ ...NEUTRAL_POSE, ...extra, expression }).rgb;
    }),
  );
  const base = join(values.out, `${name}-${intensity}`);
  await sheet(rows, face, 1, `${base}-face.png`);
  await sheet(rows.slice(0, 1), eyes, K, `${base}-eyes.png`);
  await sheet(rows, mouth, K, `${base}-mouth.png`);
  painter.close();
  console.log(`${base}-{face,eyes,mouth}.png: ${NAMES.join(", ")}; rest, mid-word; smile ${m.mouth.smile.toFixed(3)}`);
}
