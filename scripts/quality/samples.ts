/**
 * The quality sample set (docs/animation.md): four portraits × three voices, rendered by a renderer tree.
 *
 *   tsx scripts/quality/samples.ts --out DIR [--root TREE] [--size 768x768] [--only portrait,voice]
 *
 * Portraits: phone, medium, teeth, glasses (sample-portraits.ts).
 * Voices: espeak-ng (en-us male, 150 wpm), espeak-ng (en-us female variant, 220 wpm: a fast talker), and
 * the test helpers' formant-synthesised speech-like audio. Each has pauses.
 * `--root` renders with another checkout (e.g. a baseline worktree) so before/after use the same inputs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { encodeAudio, speechLike, synthSpeech } from "../../test/renderer/helpers/media-audio";
import { sampleAvatar, samplePortraits } from "./sample-portraits";

const TEXTS = {
  male: `Hello, my name is Bob. <break time="600ms"/> Maybe we should meet at the park by the pool. <break time="800ms"/> Would you move over, please? Papa bought a map.`,
  fast: `Oh wow, you're on time! <break time="500ms"/> I must admit, what a beautiful morning, Tom. <break time="700ms"/> Put the blue boot back by the boat, Mom.`,
};

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
  const [width, height] = values.size!.split("x").map(Number);
  const ps = await samplePortraits(inputs);
  const vs = await voices(inputs);
  const only = values.only?.split(",");
  for (const [pn, pp] of Object.entries(ps)) {
    if (only && !only.includes(pn)) continue;
    const avatar = await sampleAvatar(inputs, pn, pp);
    for (const [vn, vp] of Object.entries(vs)) {
      if (only && only.length > 1 && !only.includes(vn)) continue;
      const workDir = join(out, `${pn}-${vn}`);
      mkdirSync(workDir, { recursive: true });
      const r = await renderVideo({
        portraitPng: avatar.png,
        rig: avatar.rig,
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
