/**
 * Small faces open as wide (docs/animation.md, "Small faces"): one person as a ≈ 70 px face and as a large
 * face on the same face-free background, each made an Avatar the production way (createAvatarAssets) and
 * rendered with the same voice; `npm run quality` on both videos then reads their gains side by side.
 *
 *   tsx scripts/quality/small-face-gain.ts --inputs DIR --out DIR [--fixture single-camera] [--voice male]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAvatarAssets } from "../../container/src/avatar/public";
import { renderVideo } from "../../container/src/video/public";
import type { FixtureName } from "../../test/fixtures/portraits/derive";
import { fixtureFaceWidth, mediumShot } from "../../test/fixtures/portraits/small-face";

const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    out: { type: "string" },
    fixture: { type: "string", default: "single-camera" },
    voice: { type: "string", default: "male" },
  },
});
if (!values.inputs || !values.out)
  throw new Error("usage: small-face-gain.ts --inputs DIR --out DIR [--fixture NAME] [--voice NAME]");
mkdirSync(values.out, { recursive: true });
// Face widths (px, ear to ear): ≈ 70 px, and the photo's own (not rescaled), each on a face-free photo.
const SIZES = [
  { name: "small", faceWidth: 70, canvas: { width: 512, height: 512 } },
  {
    name: "large",
    faceWidth: await fixtureFaceWidth(values.fixture as FixtureName),
    canvas: { width: 1024, height: 1024 },
  },
];
for (const s of SIZES) {
  const base = join(values.out, `${values.fixture}-${s.name}`);
  if (!existsSync(`${base}.rig.json`)) {
    const a = await createAvatarAssets(await mediumShot(values.fixture as FixtureName, s));
    writeFileSync(`${base}.png`, a.portraitPng);
    writeFileSync(`${base}.rig.json`, JSON.stringify(a.rig));
  }
  mkdirSync(`${base}-${values.voice}`, { recursive: true });
  const r = await renderVideo({
    portraitPng: readFileSync(`${base}.png`),
    rig: JSON.parse(readFileSync(`${base}.rig.json`, "utf8")),
    audioPath: join(values.inputs, `${values.voice}.wav`),
    settings: {
      width: 768,
      height: 768,
      fit: "crop",
      backgroundColor: "#000000",
      backgroundFit: "cover",
      leadInSeconds: 0.6,
      leadOutSeconds: 0.6,
    },
    workDir: `${base}-${values.voice}`,
    seed: 1234,
  });
  console.log(`${s.name} (${Math.round(s.faceWidth)} px face): ${r.mp4Path}`);
}
