/**
 * Blink poses painted with the real mesh and painter, as 3× nearest-neighbour eye crops stacked top to
 * bottom (docs/animation.md, "Blinks up close"). Inputs are the sample set's (scripts/quality/samples.ts
 * writes <inputs>/<portrait>.png and .rig.json).
 *
 *   tsx scripts/quality/blink-poses.ts --inputs DIR --portrait phone --amounts 0,0.5,1,0.35 --out eyes.png [--overlay points|mesh]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { POSE_SIZE as S, posePainter } from "./paint-pose";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portrait: { type: "string" },
    amounts: { type: "string", default: "0,0.5,1,0.35" },
    out: { type: "string" },
    overlay: { type: "string" },
  },
});
if (!values.inputs || !values.portrait || !values.out)
  throw new Error(
    "usage: blink-poses.ts --inputs DIR --portrait NAME --out FILE.png [--amounts 0,0.5,1] [--overlay points|mesh]",
  );
const amounts = values.amounts!.split(",").map(Number);
const out = values.out;
const overlay = values.overlay === "mesh" ? "2" : values.overlay;
/** Vertices of one eye's lid grid (packages/face-rig/src/eyelid-mesh.ts: 17 columns × 10 rows). */
const EYE_GRID = 17 * 10;
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const painter = await posePainter(readFileSync(join(values.inputs, `${values.portrait}.png`)), rig);
const { model } = painter;
const P = (i: number) => [model.base[i * 2], model.base[i * 2 + 1]];
const cx = (P(33)[0] + P(263)[0]) / 2,
  cy = (P(33)[1] + P(263)[1]) / 2;
const io = model.interocular;
const cw = Math.round(io * 1.9),
  ch = Math.round(io * 0.5);
const x0 = Math.round(cx - cw / 2),
  y0 = Math.round(cy - ch * 0.55);
const K = 3;
const tiles: Buffer[] = [];
for (const a of amounts) {
  const { positions: pos, rgb: frame } = painter.paint({ ...NEUTRAL_POSE, blinkR: a, blinkL: a });
  const img = Buffer.alloc(cw * ch * 3);
  for (let y = 0; y < ch; y++)
    img.set(frame.subarray(((y0 + y) * S + x0) * 3, ((y0 + y) * S + x0 + cw) * 3), y * cw * 3);
  let t = sharp(img, { raw: { width: cw, height: ch, channels: 3 } }).resize(cw * K, ch * K, { kernel: "nearest" });
  if (overlay) {
    let circles = "";
    const first = model.count - 2 * EYE_GRID;
    for (let i = first; i < model.count; i++)
      circles += `<circle cx="${(pos[i * 2] - x0) * K}" cy="${(pos[i * 2 + 1] - y0) * K}" r="1" fill="${(i - first) % EYE_GRID < 17 * 2 ? "yellow" : (i - first) % EYE_GRID < 17 * 3 ? "red" : (i - first) % EYE_GRID >= 17 * 8 ? "lime" : "magenta"}"/>`;
    if (overlay === "2") {
      circles = "";
      for (let q = 0; q < model.tris.length; q += 3) {
        const v = [model.tris[q], model.tris[q + 1], model.tris[q + 2]];
        if (!v.some((i) => i >= first)) continue;
        const pts = v.map((i) => `${(pos[i * 2] - x0) * K},${(pos[i * 2 + 1] - y0) * K}`).join(" ");
        circles += `<polygon points="${pts}" fill="none" stroke="cyan" stroke-width="0.5"/>`;
      }
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${cw * K}" height="${ch * K}">${circles}</svg>`;
    t = sharp(await t.png().toBuffer()).composite([{ input: Buffer.from(svg) }]);
  }
  tiles.push(await t.png().toBuffer());
}
const comps = tiles.map((b, i) => ({ input: b, left: 0, top: i * (ch * K + 4) }));
await sharp({ create: { width: cw * K, height: amounts.length * (ch * K + 4), channels: 3, background: "#fff" } })
  .composite(comps)
  .png()
  .toFile(out);
painter.close();
console.log(out, { io, cw, ch });
