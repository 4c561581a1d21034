/**
 * How much of a painted opening the face detector reads (docs/animation.md, "Why the gain stays low"):
 * fixed mouth poses painted with the real mesh, painter and the portrait's own mouth colours, then the
 * inner-lip gap measured twice — on the mesh (the renderer's own lip points) and by FaceMesh on the painted
 * frame — both as the increase over rest, in outer-eye-corner distances (the quality script's unit).
 *
 *   tsx scripts/quality/pose-gap.ts --inputs DIR --portrait glasses [--opens 0.3,0.6,1] [--png out.png]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { buildFaceModel, deform, mouthColors, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { analyzeFaces } from "../../container/src/face/analyze";
import { composeCanvas, sampleColor } from "../../container/src/video/compose";
import { FramePainter } from "../../container/src/video/painter";
import { rgbToYuv420, yuv420ToRgb } from "../../container/src/video/yuv";

const { values } = parseArgs({ options: { inputs: { type: "string" }, portrait: { type: "string" }, opens: { type: "string", default: "0.3,0.6,1" }, png: { type: "string" } } });
if (!values.inputs || !values.portrait) throw new Error("usage: pose-gap.ts --inputs DIR --portrait NAME [--opens 0.3,0.6,1] [--png out.png]");
const S = 768;
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const png = readFileSync(join(values.inputs, `${values.portrait}.png`));
const settings = { width: S, height: S, fit: "crop", backgroundColor: "#000000", backgroundFit: "cover" } as const;
const { rgb, placement } = await composeCanvas(png, rig, undefined, settings as never);
const model = buildFaceModel(rig, placement);
const pt = (i: number): [number, number] => [model.base[i * 2], model.base[i * 2 + 1]];
const mid = (a: number, b: number): [number, number] => [(pt(a)[0] + pt(b)[0]) / 2, (pt(a)[1] + pt(b)[1]) / 2];
const skin = sampleColor(rgb, S, S, [pt(205), pt(425), pt(50), pt(280)], Math.max(1, model.interocular * 0.03));
const lip = sampleColor(rgb, S, S, [mid(14, 17), mid(87, 84), mid(317, 314)], Math.max(1, model.interocular * 0.012));
const painter = await FramePainter.create(model, mouthColors(skin, lip), rgbToYuv420(rgb, S, S), S, S, { threads: 1, poolSize: 1 });

/** Inner-lip gap (the quality script's three pairs) ÷ outer-eye-corner distance, on a point list. */
const gapOf = (p: (i: number) => [number, number]) => {
  const d = (a: number, b: number) => Math.hypot(p(a)[0] - p(b)[0], p(a)[1] - p(b)[1]);
  return (d(82, 87) + d(13, 14) + d(312, 317)) / 3 / d(33, 263);
};
const opens = [0, ...values.opens!.split(",").map(Number)];
const rows: Array<{ open: number; mesh: number; detector: number }> = [];
const tiles: Buffer[] = [];
for (const open of opens) {
  const pose = { ...NEUTRAL_POSE, open };
  const pos = deform(model, pose, new Float32Array(model.count * 2));
  painter.paint(pos, pose, 0);
  const frame = Buffer.from(yuv420ToRgb(painter.pool[0], S, S).buffer);
  const [f] = await analyzeFaces({ data: frame, width: S, height: S });
  rows.push({ open, mesh: gapOf((i) => [pos[i * 2], pos[i * 2 + 1]]), detector: f ? gapOf((i) => [f.mesh[i][0], f.mesh[i][1]]) : NaN });
  if (values.png) {
    const [cx, cy] = mid(13, 14);
    const w = Math.round(model.interocular * 0.9);
    const [x0, y0] = [Math.round(cx - w / 2), Math.round(cy - w / 2)];
    // The detector's inner-lip points (upper red, lower blue) on the 2× crop.
    const dot = (i: number, c: string) => (f ? `<circle cx="${(f.mesh[i][0] - x0) * 2}" cy="${(f.mesh[i][1] - y0) * 2}" r="3" fill="${c}"/>` : "");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * 2}" height="${w * 2}">${[82, 13, 312].map((i) => dot(i, "red")).join("")}${[87, 14, 317].map((i) => dot(i, "blue")).join("")}</svg>`;
    const crop = await sharp(frame, { raw: { width: S, height: S, channels: 3 } }).extract({ left: x0, top: y0, width: w, height: w }).resize(w * 2, w * 2, { kernel: "nearest" }).png().toBuffer();
    tiles.push(await sharp(crop).composite([{ input: Buffer.from(svg) }]).png().toBuffer());
  }
}
painter.close();
const [rest] = rows;
console.log(`${values.portrait}: open | mesh +gap | detector +gap | detector ÷ mesh`);
for (const r of rows.slice(1)) {
  const m = r.mesh - rest.mesh;
  const d = r.detector - rest.detector;
  console.log(`${r.open} | ${m.toFixed(3)} | ${d.toFixed(3)} | ${(d / m).toFixed(2)}`);
}
if (values.png && tiles.length) {
  const side = (await sharp(tiles[0]).metadata()).width!;
  await sharp({ create: { width: side * tiles.length, height: side, channels: 3, background: "#fff" } })
    .composite(tiles.map((input, k) => ({ input, left: k * side, top: 0 })))
    .png()
    .toFile(values.png);
}
