/**
 * Mouth poses painted with the real mesh and painter, as 2× nearest-neighbour mouth crops side by side
 * (docs/phonetic-mouth.md): rest, open vowel, m/b/p, f/v, oo, ee — the speaking poses
 * with the smile relaxed, as during speech. Inputs are the sample set's (scripts/quality/samples.ts).
 *
 *   tsx scripts/quality/mouth-poses.ts --inputs DIR --portrait teeth --out mouth.png
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { MOUTH_POSES, poseCrop, posePainter } from "./paint-pose";

const { values } = parseArgs({
  options: { inputs: { type: "string" }, portrait: { type: "string" }, out: { type: "string" } },
});
if (!values.inputs || !values.portrait || !values.out)
  throw new Error("usage: mouth-poses.ts --inputs DIR --portrait NAME --out FILE.png");
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const painter = await posePainter(readFileSync(join(values.inputs, `${values.portrait}.png`)), rig);
const m = painter.model;
const hw = m.mouth.halfWidth;
const side = Math.round(1.7 * hw);
const x0 = Math.round(m.mouth.ox - side);
const y0 = Math.round(m.mouth.oy - 0.8 * side);
const K = 2;
const tiles: Buffer[] = [];
for (const [, pose] of MOUTH_POSES) {
  const { rgb } = painter.paint({ ...NEUTRAL_POSE, ...pose });
  tiles.push(await poseCrop(rgb, x0, y0, 2 * side, 2 * side, K));
}
const t = 2 * side * K;
await sharp({ create: { width: MOUTH_POSES.length * (t + 4), height: t, channels: 3, background: "#fff" } })
  .composite(tiles.map((b, i) => ({ input: b, left: i * (t + 4), top: 0 })))
  .png()
  .toFile(values.out);
painter.close();
console.log(`${values.out}: ${MOUTH_POSES.map(([n]) => n).join(", ")}; smile ${m.mouth.smile.toFixed(3)}`);
