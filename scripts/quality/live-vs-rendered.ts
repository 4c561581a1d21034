/**
 * Live = rendered, measured on a sample portrait (docs/motion.md, docs/performance.md): the poses of
 * live-compare.ts drawn by the motion client in Chromium (bundled from today's sources) and painted by the
 * renderer, their difference in the mouth box (mouth poses) or, with `--expressions` (each expression on a
 * turned head, at rest and mid-word), in the brows-and-eyes box and the mouth box, next to what H.264 changes
 * there, and a 2× picture per box (rows: live, rendered; a column per pose).
 *
 *   tsx scripts/quality/live-vs-rendered.ts --inputs DIR --portrait teeth [--expressions] [--png out.png] [--bundle FILE]
 *
 * `--bundle` takes another build of workers/motion/generated/motion-client.ts (e.g. an older commit's).
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { bundleMotionClient } from "../build-motion-client";
import {
  type Box,
  canvasRgb,
  codecError,
  cropYuv,
  difference,
  drawLive,
  EXPRESSION_POSES,
  expressionBoxes,
  LIVE_POSES,
  liveYuv,
  livePoses,
  motionMessage,
  mouthBox,
  renderPoses,
  tileSheet,
  yuvRgb,
} from "./live-compare";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    portrait: { type: "string" },
    png: { type: "string" },
    bundle: { type: "string" },
    expressions: { type: "boolean", default: false },
  },
});
if (!values.inputs || !values.portrait)
  throw new Error("usage: live-vs-rendered.ts --inputs DIR --portrait NAME [--png FILE]");
const png = readFileSync(join(values.inputs, `${values.portrait}.png`));
const rig = JSON.parse(readFileSync(join(values.inputs, `${values.portrait}.rig.json`), "utf8"));
const named = values.expressions ? EXPRESSION_POSES : LIVE_POSES;
const poses = livePoses(named);

const module = values.bundle ? readFileSync(values.bundle, "utf8") : await bundleMotionClient();
const js = module.replace(/^[^\n]*\nexport const MOTION_CLIENT_JS = /, "").replace(/;\n$/, "");
const files: Record<string, [string, string | Buffer]> = {
  "/": ["text/html", "<!doctype html><title>live</title>"],
  "/motion-client.js": ["text/javascript", JSON.parse(js) as string],
  "/rig.json": ["application/json", JSON.stringify({ ...rig, portraitUrl: "/portrait.png" })],
  "/portrait.png": ["image/png", png],
};
const server = createServer((req, res) => {
  const f = files[new URL(req.url ?? "/", "http://x").pathname];
  if (!f) return res.writeHead(404).end();
  res.setHeader("content-type", f[0]).end(f[1]);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
});
const page = await browser.newPage();
await page.addInitScript("globalThis.__name = (f) => f");
await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
const live = await drawLive(page, "/motion-client.js", "/rig.json", poses.map(motionMessage));
await browser.close();
server.close();

const { model, frames } = await renderPoses(png, rig, poses);
const { width: W, height: H } = frames[0]!;
const boxes: Array<[string, Box]> = values.expressions ? expressionBoxes(model, W, H) : [["mouth", mouthBox(model)]];
const f = (x: number) => x.toFixed(2);
for (const [region, box] of boxes) {
  const codec = codecError(frames, box);
  console.log(`${values.portrait}: ${region} box ${box.width}×${box.height} at (${box.x}, ${box.y})`);
  console.log(
    "pose | live vs rendered: MAD Y / MAD C / PSNR / max | H.264 vs lossless: MAD Y / MAD C / PSNR / max | rendered vs its neutral: MAD Y",
  );
  const rows: Uint8Array[][] = [[], []];
  named.forEach(([name], k) => {
    const r = cropYuv(frames[k]!, box);
    const d = difference(liveYuv(live[k]!, box), r);
    const c = codec[k]!;
    // The same mouth and head without the expression (EXPRESSION_POSES come in pairs after neutral's).
    const own = values.expressions ? ` | ${f(difference(r, cropYuv(frames[k % 2]!, box)).madY)}` : "";
    console.log(
      `${name} | ${f(d.madY)} / ${f(d.madC)} / ${f(d.psnr)} dB / ${d.max} | ${f(c.madY)} / ${f(c.madC)} / ${f(c.psnr)} dB / ${c.max}${own}`,
    );
    rows[0]!.push(canvasRgb(live[k]!, box));
    rows[1]!.push(yuvRgb(r));
  });
  const moved = difference(cropYuv(frames[1]!, box), cropYuv(frames[0]!, box));
  console.log(`rendered ${named[1]![0]} vs ${named[0]![0]}: ${f(moved.madY)} / ${f(moved.madC)} / ${f(moved.psnr)} dB`);
  const png = boxes.length > 1 ? values.png?.replace(/\.png$/, `-${region.replace(/ /g, "-")}.png`) : values.png;
  if (png) await tileSheet(rows, box.width, box.height, png);
}
