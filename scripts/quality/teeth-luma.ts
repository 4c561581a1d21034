/**
 * Her own teeth, always (issue 25, point 2), measured: the mean luma of the brightest third of the mouth
 * interior (inside the inner-lip contour) in the open frames of a voice, ÷ the same in the photo at rest
 * (goal ≥ 90 % on a photo that shows its teeth). Frames are painted with the real mesh and painter from the
 * voice's own lip track (head still), so the contour is the renderer's own.
 *
 *   tsx scripts/quality/teeth-luma.ts --inputs DIR --portrait teeth --voice DIR/male.wav [--png open.png]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { analyzeLipSync, sampleTrack } from "@avatar-video/motion-model";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { interiorBrightThird } from "./metrics";
import { POSE_SIZE as S, posePainter } from "./paint-pose";
import { decode16k } from "../speech/tts";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portrait: { type: "string" },
    voice: { type: "string" },
    png: { type: "string" },
  },
});
if (!values.inputs || !values.portrait || !values.voice)
  throw new Error("usage: teeth-luma.ts --inputs DIR --portrait NAME --voice WAV [--png FILE]");
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const painter = await posePainter(readFileSync(join(values.inputs, `${values.portrait}.png`)), rig);
const track = analyzeLipSync(decode16k(values.voice));
const still = painter.paint(NEUTRAL_POSE);
const photo = interiorBrightThird(still.rgb, S, still.positions);
const ratios: number[] = [];
let widest = { open: 0, rgb: still.rgb };
for (let f = 0; f < (track.length / 100) * 25; f++) {
  const m = sampleTrack(track, f / 25);
  if (m.open * (1 - m.press) < 0.3) continue; // open frames
  const { rgb, positions } = painter.paint({ ...NEUTRAL_POSE, ...m });
  ratios.push(interiorBrightThird(rgb, S, positions) / photo);
  if (m.open > widest.open) widest = { open: m.open, rgb };
}
painter.close();
ratios.sort((a, b) => a - b);
const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
console.log(
  `${values.portrait}: photo ${photo.toFixed(1)}; ${ratios.length} open frames: mean ${(100 * mean).toFixed(1)} %, lowest ${(100 * ratios[0]).toFixed(1)} %`,
);
if (values.png)
  await sharp(widest.rgb, { raw: { width: S, height: S, channels: 3 } })
    .png()
    .toFile(values.png);
