/**
 * 2× mouth crops (nearest neighbour: the pixels as rendered) of chosen frames, tiled: one row per video,
 * one column per frame. Used for docs/animation.md.
 *
 *   tsx scripts/quality/crops.ts --rig R.json --portrait P.png --size 768x768 --frames 0,40,80 --out x.png a.mp4 [b.mp4]
 *   --region mouth|eyes|face   (default mouth)
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { placePortrait } from "../../container/src/paint/public";
import { ffmpegPath, run } from "../../container/src/media/public";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rig: { type: "string" },
    portrait: { type: "string" },
    size: { type: "string", default: "768x768" },
    frames: { type: "string" },
    out: { type: "string" },
    region: { type: "string", default: "mouth" },
  },
});
const rig = JSON.parse(readFileSync(values.rig!, "utf8"));
const [W, H] = values.size!.split("x").map(Number);
const meta = await sharp(readFileSync(values.portrait!)).metadata();
const place = placePortrait(rig, meta.width!, meta.height!, {
  width: W,
  height: H,
  fit: "crop",
  backgroundColor: "#000000",
  backgroundFit: "cover",
});
const P = (i: number) => [
  rig.landmarks[i][0] * place.scaleX * (meta.width! / rig.portrait.width) + place.offsetX,
  rig.landmarks[i][1] * place.scaleY * (meta.height! / rig.portrait.height) + place.offsetY,
];
const mw = Math.hypot(P(291)[0] - P(61)[0], P(291)[1] - P(61)[1]);
let cx: number, cy: number, side: number;
if (values.region === "eyes") {
  cx = (P(33)[0] + P(263)[0]) / 2;
  cy = (P(33)[1] + P(263)[1]) / 2;
  side = 1.9 * mw;
} else if (values.region === "face") {
  cx = (P(234)[0] + P(454)[0]) / 2;
  cy = (P(10)[1] + P(152)[1]) / 2;
  side = 1.5 * Math.hypot(P(10)[0] - P(152)[0], P(10)[1] - P(152)[1]);
} else {
  cx = (P(61)[0] + P(291)[0]) / 2;
  cy = (P(13)[1] + P(14)[1]) / 2 + 0.15 * mw;
  side = 1.7 * mw;
}
const s = Math.round(side / 2) * 2;
const x = Math.max(0, Math.min(W - s, Math.round(cx - s / 2)));
const y = Math.max(0, Math.min(H - s, Math.round(cy - s / 2)));
const frames = values.frames!.split(",").map(Number);
const k = values.region === "face" ? 1 : 2;
const rows: Buffer[] = [];
for (const v of positionals) {
  const sel = frames.map((f) => `eq(n\\,${f})`).join("+");
  const r = await run(ffmpegPath(), [
    "-v",
    "error",
    "-i",
    v,
    "-vf",
    `select='${sel}',crop=${s}:${s}:${x}:${y},scale=${s * k}:${s * k}:flags=neighbor,tile=${frames.length}x1:padding=4`,
    "-frames:v",
    "1",
    "-f",
    "image2",
    "-c:v",
    "png",
    "pipe:1",
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
  rows.push(r.stdout);
}
const metas = await Promise.all(rows.map((b) => sharp(b).metadata()));
const tw = Math.max(...metas.map((m) => m.width!));
const th = metas.reduce((a, m) => a + m.height! + 4, 0);
let top = 0;
const comps = rows.map((b, i) => {
  const c = { input: b, left: 0, top };
  top += metas[i].height! + 4;
  return c;
});
await sharp({ create: { width: tw, height: th, channels: 3, background: "#ffffff" } })
  .composite(comps)
  .png()
  .toFile(values.out!);
console.log(`${values.out}: crop ${s}px at (${x}, ${y}) ×${k}`);
