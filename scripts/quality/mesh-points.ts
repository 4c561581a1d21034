/**
 * Both face meshes' lip and eye points on 2× crops of a portrait (docs/phonetic-mouth.md "Lips and eyes from
 * the refined mesh"): Human's FaceMesh (the rig of version 1) in red (upper inner lip, upper lids) and blue
 * (lower), the refining attention mesh (version 2) in yellow and cyan. Both run on the portrait as Avatar
 * creation does (≤ 512 px). Inputs are the sample set's (scripts/quality/samples.ts).
 *
 *   tsx scripts/quality/mesh-points.ts --inputs DIR --portraits phone,medium,teeth,glasses --out points.png
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { LIPS_LOWER_INNER, LIPS_UPPER_INNER } from "../../packages/face-rig/src/facemesh-topology";
import { analyzeFaces, type Point3 } from "../../container/src/analysis/public";
import { RIG_ANALYSIS_SIDE } from "../../container/src/avatar/public";

const UPPER = [...LIPS_UPPER_INNER, 246, 161, 160, 159, 158, 157, 173, 466, 388, 387, 386, 385, 384, 398];
const LOWER = [...LIPS_LOWER_INNER, 7, 163, 144, 145, 153, 154, 155, 249, 390, 373, 374, 380, 381, 382];
const K = 2;

async function crops(file: string): Promise<Buffer[]> {
  const { data, info } = await sharp(file)
    .removeAlpha()
    .resize(RIG_ANALYSIS_SIDE, RIG_ANALYSIS_SIDE, { fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const img = { data, width: info.width, height: info.height };
  const [standard] = await analyzeFaces(img, "standard");
  const [refined] = await analyzeFaces(img, "refined");
  const m = refined.mesh;
  const mw = Math.hypot(m[291][0] - m[61][0], m[291][1] - m[61][1]);
  const io = Math.hypot(m[263][0] - m[33][0], m[263][1] - m[33][1]);
  const regions = [
    { cx: (m[61][0] + m[291][0]) / 2, cy: (m[13][1] + m[14][1]) / 2, w: 1.4 * mw, h: 0.7 * mw },
    { cx: (m[33][0] + m[263][0]) / 2, cy: (m[159][1] + m[386][1]) / 2, w: 1.5 * io, h: 0.4 * io },
  ];
  const dots = (mesh: Point3[], idx: number[], colour: string, x0: number, y0: number) =>
    idx
      .map(
        (i) =>
          `<circle cx="${(mesh[i][0] - x0) * K}" cy="${(mesh[i][1] - y0) * K}" r="2.2" fill="${colour}" stroke="black" stroke-width="0.5"/>`,
      )
      .join("");
  return Promise.all(
    regions.map(async ({ cx, cy, w, h }) => {
      const x0 = Math.max(0, Math.round(cx - w / 2));
      const y0 = Math.max(0, Math.round(cy - h / 2));
      const cw = Math.min(img.width - x0, Math.round(w));
      const ch = Math.min(img.height - y0, Math.round(h));
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${cw * K}" height="${ch * K}">${dots(standard.mesh, UPPER, "red", x0, y0)}${dots(standard.mesh, LOWER, "blue", x0, y0)}${dots(refined.mesh, UPPER, "yellow", x0, y0)}${dots(refined.mesh, LOWER, "cyan", x0, y0)}</svg>`;
      const crop = await sharp(data, { raw: { width: img.width, height: img.height, channels: 3 } })
        .extract({ left: x0, top: y0, width: cw, height: ch })
        .resize(cw * K, ch * K, { kernel: "nearest" })
        .png()
        .toBuffer();
      return sharp(crop)
        .composite([{ input: Buffer.from(svg) }])
        .png()
        .toBuffer();
    }),
  );
}

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portraits: { type: "string", default: "phone,medium,teeth,glasses" },
    out: { type: "string" },
  },
});
if (!values.inputs || !values.out)
  throw new Error("usage: mesh-points.ts --inputs DIR --out FILE.png [--portraits a,b]");
const rows = await Promise.all(values.portraits!.split(",").map((p) => crops(join(values.inputs!, `${p}.png`))));
const metas = await Promise.all(rows.flat().map((b) => sharp(b).metadata()));
const width = Math.max(...rows.map((_, r) => metas[2 * r].width! + 6 + metas[2 * r + 1].width!));
const heights = rows.map((_, r) => Math.max(metas[2 * r].height!, metas[2 * r + 1].height!));
let top = 0;
const comps = rows.flatMap(([mouth, eyes], r) => {
  const c = [
    { input: mouth, left: 0, top },
    { input: eyes, left: metas[2 * r].width! + 6, top },
  ];
  top += heights[r] + 6;
  return c;
});
await sharp({ create: { width, height: top, channels: 3, background: "#ffffff" } })
  .composite(comps)
  .jpeg({ quality: 90 })
  .toFile(values.out);
console.log(values.out);
