/**
 * Lip presses and open vowels painted with the real mesh and painter, as 2× nearest-neighbour mouth crops in
 * one row per portrait (docs/animation.md, "Teeth are teeth"): press 0, 0.5, 0.8, 1 (smile relaxed, as in
 * speech), then a mid and an open vowel (lower teeth) and an oo (lips
 * closing over the teeth at the sides). Run it on two trees for a before/after sheet.
 *
 *   tsx scripts/quality/press-sheet.ts --inputs DIR --portraits teeth,phone,glasses --out press.png
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { type FacePose, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { poseCrop, posePainter } from "./paint-pose";

export const PRESS_POSES: Array<[string, Partial<FacePose>]> = [
  ["press 0", { relax: 1 }],
  ["press 0.5", { press: 0.5, relax: 1 }],
  ["press 0.8", { press: 0.8, relax: 1 }],
  ["press 1", { press: 1, relax: 1 }],
  ["mid vowel", { open: 0.55, spread: 0.1, relax: 1 }],
  ["open vowel", { open: 0.9, spread: 0.1, relax: 1 }],
  ["oo", { open: 0.2, round: 1, relax: 1 }],
];

const { values } = parseArgs({
  options: { inputs: { type: "string" }, portraits: { type: "string" }, out: { type: "string" } },
});
if (!values.inputs || !values.portraits || !values.out)
  throw new Error("usage: press-sheet.ts --inputs DIR --portraits a,b --out FILE.png");
const K = 2;
const rows: Buffer[] = [];
let width = 0;
for (const name of values.portraits.split(",")) {
  const rig = JSON.parse(readFileSync(join(values.inputs, `${name}.rig.json`), "utf8"));
  const painter = await posePainter(readFileSync(join(values.inputs, `${name}.png`)), rig);
  const m = painter.model.mouth;
  // Crops of the same size on every portrait (their mouths are about as wide at 768²), centred on the mouth.
  const w = 120;
  const h = 120;
  const x0 = Math.round(m.ox - w / 2);
  const y0 = Math.round(m.oy - 0.33 * h);
  const tiles: Buffer[] = [];
  for (const [, pose] of PRESS_POSES) {
    const { rgb } = painter.paint({ ...NEUTRAL_POSE, ...pose });
    tiles.push(await poseCrop(rgb, x0, y0, w, h, K));
  }
  painter.close();
  width = PRESS_POSES.length * (w * K + 4);
  rows.push(
    await sharp({ create: { width, height: h * K + 4, channels: 3, background: "#fff" } })
      .composite(tiles.map((b, i) => ({ input: b, left: i * (w * K + 4), top: 0 })))
      .png()
      .toBuffer(),
  );
}
const rowH = (await sharp(rows[0]).metadata()).height ?? 0;
await sharp({ create: { width, height: rows.length * rowH, channels: 3, background: "#fff" } })
  .composite(rows.map((b, i) => ({ input: b, left: 0, top: i * rowH })))
  .png()
  .toFile(values.out);
console.log(`${values.out}: ${values.portraits}; ${PRESS_POSES.map(([n]) => n).join(", ")}`);
