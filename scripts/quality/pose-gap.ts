/**
 * How much of a painted opening the face detectors read (docs/animation.md, "How the opening is read"):
 * fixed mouth poses painted with the real mesh, painter and the portrait's own mouth colours, then the
 * inner-lip gap measured three times — on the mesh (the renderer's own lip points), by Human's FaceMesh and by
 * the lip-refining MediaPipe mesh (refined-mesh.ts) on the painted frame — each as the increase over rest, in
 * outer-eye-corner distances (the quality script's unit).
 *
 *   tsx scripts/quality/pose-gap.ts --inputs DIR --portrait glasses [--opens 0.3,0.6,1] [--png out.png]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { NEUTRAL_POSE } from "@avatar-video/face-rig";
import { analyzeFaces } from "../../container/src/analysis/public";
import { innerLipGap } from "./metrics";
import { POSE_SIZE as S, posePainter } from "./paint-pose";
import { RefinedMesh } from "./refined-mesh";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portrait: { type: "string" },
    opens: { type: "string", default: "0.3,0.6,1" },
    png: { type: "string" },
  },
});
if (!values.inputs || !values.portrait)
  throw new Error("usage: pose-gap.ts --inputs DIR --portrait NAME [--opens 0.3,0.6,1] [--png out.png]");
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const painter = await posePainter(readFileSync(join(values.inputs, `${values.portrait}.png`)), rig);
const { model } = painter;
const pt = (i: number): [number, number] => [model.base[i * 2], model.base[i * 2 + 1]];
const mid = (a: number, b: number): [number, number] => [(pt(a)[0] + pt(b)[0]) / 2, (pt(a)[1] + pt(b)[1]) / 2];

const opens = [0, ...values.opens!.split(",").map(Number)];
const rows: Array<{ open: number; mesh: number; detector: number; refined: number }> = [];
const refinedMesh = await RefinedMesh.open();
const tiles: Buffer[] = [];
for (const open of opens) {
  const { positions: pos, rgb: frame } = painter.paint({ ...NEUTRAL_POSE, open });
  const [f] = await analyzeFaces({ data: frame, width: S, height: S });
  const refined = await refinedMesh.detect(frame, S, S);
  const meshPoints = Array.from({ length: model.count }, (_, i) => [pos[i * 2], pos[i * 2 + 1]]);
  rows.push({
    open,
    mesh: innerLipGap(meshPoints),
    detector: f ? innerLipGap(f.mesh) : NaN,
    refined: refined ? innerLipGap(refined) : NaN,
  });
  if (values.png) {
    const [cx, cy] = mid(13, 14);
    const w = Math.round(model.interocular * 0.9);
    const [x0, y0] = [Math.round(cx - w / 2), Math.round(cy - w / 2)];
    // The detectors' inner-lip points on the 2× crop: Human's upper red, lower blue; the refined mesh's upper yellow, lower cyan.
    const dots = (m: number[][] | null | undefined, up: string, low: string) =>
      m
        ? [82, 13, 312, 87, 14, 317]
            .map(
              (i, k) =>
                `<circle cx="${(m[i][0] - x0) * 2}" cy="${(m[i][1] - y0) * 2}" r="3" fill="${k < 3 ? up : low}"/>`,
            )
            .join("")
        : "";
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * 2}" height="${w * 2}">${dots(f?.mesh, "red", "blue")}${dots(refined, "yellow", "cyan")}</svg>`;
    const crop = await sharp(frame, { raw: { width: S, height: S, channels: 3 } })
      .extract({ left: x0, top: y0, width: w, height: w })
      .resize(w * 2, w * 2, { kernel: "nearest" })
      .png()
      .toBuffer();
    tiles.push(
      await sharp(crop)
        .composite([{ input: Buffer.from(svg) }])
        .png()
        .toBuffer(),
    );
  }
}
painter.close();
await refinedMesh.close();
const [rest] = rows;
console.log(`${values.portrait}: open | mesh +gap | Human +gap | Human ÷ mesh | refined +gap | refined ÷ mesh`);
for (const r of rows.slice(1)) {
  const m = r.mesh - rest.mesh;
  const d = r.detector - rest.detector;
  const q = r.refined - rest.refined;
  console.log(
    `${r.open} | ${m.toFixed(3)} | ${d.toFixed(3)} | ${(d / m).toFixed(2)} | ${q.toFixed(3)} | ${(q / m).toFixed(2)}`,
  );
}
if (values.png && tiles.length) {
  const side = (await sharp(tiles[0]).metadata()).width!;
  await sharp({ create: { width: side * tiles.length, height: side, channels: 3, background: "#fff" } })
    .composite(tiles.map((input, k) => ({ input, left: k * side, top: 0 })))
    .png()
    .toFile(values.png);
}
