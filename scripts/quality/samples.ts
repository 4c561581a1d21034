/**
 * The quality sample set (docs/animation.md): four portraits × three voices, rendered by a renderer tree.
 *
 *   tsx scripts/quality/samples.ts --out DIR [--root TREE] [--size 768x768] [--only portrait,voice]
 *
 * Portraits (all derived from the committed fixtures, see test/fixtures/portraits/SOURCES.md):
 *  - phone:   single-phone.jpg as is (test portrait)
 *  - medium:  a 512×512 medium shot: single-camera.jpg (test portrait) cropped square and scaled to 512²
 *  - teeth:   group-four.jpg crop around the second woman, who smiles showing her upper teeth
 *  - glasses: group-four.jpg crop around the right-hand woman with synthetic spectacles drawn at her eyes
 *             (dark rims, bridge, temples, faint lens tint) — our fixtures have no beard or glasses, so
 *             this one is made, not found
 * Voices: espeak-ng (en-us male, 150 wpm), espeak-ng (en-us female variant, 220 wpm: a fast talker), and
 * the test helpers' formant-synthesised speech-like audio. Each has pauses.
 * `--root` renders with another checkout (e.g. a baseline worktree) so before/after use the same inputs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { encodeAudio, speechLike, synthSpeech } from "../../test/renderer/helpers/media-audio";

const FIX = join(import.meta.dirname, "..", "..", "test", "fixtures", "portraits");

const TEXTS = {
  male: `Hello, my name is Bob. <break time="600ms"/> Maybe we should meet at the park by the pool. <break time="800ms"/> Would you move over, please? Papa bought a map.`,
  fast: `Oh wow, you're on time! <break time="500ms"/> I must admit, what a beautiful morning, Tom. <break time="700ms"/> Put the blue boot back by the boat, Mom.`,
};

async function glasses(src: Buffer): Promise<Buffer> {
  const { analyzeFaces } = await import("../../container/src/analysis/public");
  const { data, info } = await sharp(src).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [f] = await analyzeFaces({ data, width: info.width, height: info.height });
  const m = f.mesh;
  const c = (a: number, b: number) => [(m[a][0] + m[b][0]) / 2, (m[a][1] + m[b][1]) / 2];
  const iod = Math.hypot(m[263][0] - m[33][0], m[263][1] - m[33][1]);
  const R = c(33, 133);
  const L = c(362, 263);
  const w = 0.44 * iod;
  const h = 0.3 * iod;
  const t = Math.max(2, 0.035 * iod);
  const ang = (Math.atan2(m[263][1] - m[33][1], m[263][0] - m[33][0]) * 180) / Math.PI;
  const lens = (p: number[]) =>
    `<rect x="${p[0] - w / 2}" y="${p[1] - h / 2}" width="${w}" height="${h}" rx="${h * 0.45}" transform="rotate(${ang} ${p[0]} ${p[1]})" fill="rgba(120,140,160,0.12)" stroke="#1d1612" stroke-width="${t}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${info.width}" height="${info.height}">
    ${lens(R)}${lens(L)}
    <path d="M ${R[0] + w / 2} ${R[1] - h * 0.15} Q ${(R[0] + L[0]) / 2} ${(R[1] + L[1]) / 2 - h * 0.45} ${L[0] - w / 2} ${L[1] - h * 0.15}" fill="none" stroke="#1d1612" stroke-width="${t * 0.8}"/>
    <line x1="${R[0] - w / 2}" y1="${R[1] - h * 0.2}" x2="${m[234][0] + 2}" y2="${m[234][1] - h * 0.5}" stroke="#1d1612" stroke-width="${t * 0.8}"/>
    <line x1="${L[0] + w / 2}" y1="${L[1] - h * 0.2}" x2="${m[454][0] - 2}" y2="${m[454][1] - h * 0.5}" stroke="#1d1612" stroke-width="${t * 0.8}"/>
  </svg>`;
  const blurred = await sharp(Buffer.from(svg)).blur(0.8).png().toBuffer();
  return sharp(src)
    .composite([{ input: blurred }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

async function portraits(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const make = async (name: string, fn: () => Promise<Buffer>) => {
    const p = join(dir, `${name}.jpg`);
    if (!existsSync(p)) writeFileSync(p, await fn());
    out[name] = p;
  };
  const g4 = join(FIX, "group-four.jpg");
  await make("phone", async () => readFileSync(join(FIX, "single-phone.jpg")));
  await make("medium", () =>
    sharp(join(FIX, "single-camera.jpg"))
      .extract({ left: 0, top: 20, width: 680, height: 680 })
      .resize(512, 512, { kernel: "lanczos3" })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  await make("teeth", () =>
    sharp(g4).extract({ left: 340, top: 150, width: 360, height: 420 }).jpeg({ quality: 92 }).toBuffer(),
  );
  await make("glasses", async () =>
    glasses(await sharp(g4).extract({ left: 930, top: 80, width: 350, height: 440 }).jpeg({ quality: 95 }).toBuffer()),
  );
  return out;
}

async function voices(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, voice, speed] of [
    ["male", "en-us", "150"],
    ["fast", "en-us+f3", "220"],
  ] as const) {
    const p = join(dir, `${name}.wav`);
    if (!existsSync(p))
      execFileSync("espeak-ng", ["-m", "-v", voice, "-s", speed, "-w", p, `<speak>${TEXTS[name]}</speak>`]);
    out[name] = p;
  }
  const p = join(dir, "synth.wav");
  if (!existsSync(p)) await encodeAudio(synthSpeech(speechLike(8, 5), 24_000), 24_000, p, "wav");
  out.synth = p;
  return out;
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      root: { type: "string" },
      size: { type: "string", default: "768x768" },
      only: { type: "string" },
    },
  });
  const out = resolve(values.out ?? "quality-out");
  const inputs = join(out, "..", "inputs");
  mkdirSync(out, { recursive: true });
  mkdirSync(inputs, { recursive: true });
  const root = resolve(values.root ?? join(import.meta.dirname, "..", ".."));
  const { renderVideo } = await import(join(root, "container/src/video/public.ts"));
  const { createAvatarAssets } = await import(join(import.meta.dirname, "..", "..", "container/src/avatar/public.ts"));
  const [width, height] = values.size!.split("x").map(Number);
  const ps = await portraits(inputs);
  const vs = await voices(inputs);
  const only = values.only?.split(",");
  for (const [pn, pp] of Object.entries(ps)) {
    if (only && !only.includes(pn)) continue;
    const rigPath = join(inputs, `${pn}.rig.json`);
    const pngPath = join(inputs, `${pn}.png`);
    if (!existsSync(rigPath)) {
      const a = await createAvatarAssets(readFileSync(pp));
      writeFileSync(pngPath, a.portraitPng);
      writeFileSync(rigPath, JSON.stringify(a.rig));
    }
    for (const [vn, vp] of Object.entries(vs)) {
      if (only && only.length > 1 && !only.includes(vn)) continue;
      const workDir = join(out, `${pn}-${vn}`);
      mkdirSync(workDir, { recursive: true });
      const r = await renderVideo({
        portraitPng: readFileSync(pngPath),
        rig: JSON.parse(readFileSync(rigPath, "utf8")),
        audioPath: vp,
        settings: {
          width,
          height,
          fit: "crop",
          backgroundColor: "#000000",
          backgroundFit: "cover",
          leadInSeconds: 0.6,
          leadOutSeconds: 0.6,
        },
        workDir,
        seed: 1234,
      });
      console.log(`${pn}-${vn}: ${r.frames} frames, ${r.timings.total} ms → ${r.mp4Path}`);
    }
  }
}

await main();
