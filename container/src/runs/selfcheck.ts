/**
 * Build/deploy smoke check of the renderer's native pieces: the ffmpeg and ffprobe binaries execute (under the
 * children's resource limits: prlimit is required in production) and have the encoders of both outputs, sharp
 * loads, the face and segmentation models load from node_modules on the WASM backend. Run by the Dockerfile
 * (on the compiled JavaScript) so a broken image fails at build time instead of on the first job:
 *   node container/dist/selfcheck.js
 */
import { spawnSync } from "node:child_process";
import {
  childEnv,
  ffmpegChoice,
  ffmpegPath,
  ffprobePath,
  hasPrlimit,
  limitedCommand,
  MIN_SYSTEM_MAJOR,
  parseVersion,
} from "../media/public";

async function main(): Promise<void> {
  const problems: string[] = [];
  const choice = ffmpegChoice();
  console.log(`ffmpeg choice: ${choice.source} ${choice.ffmpeg} (${choice.version})`);
  // Production runs a maintained ffmpeg: the image's (FFMPEG_PATH), never the npm fallback.
  if (process.env.NODE_ENV === "production") {
    const major = parseVersion(`ffmpeg version ${choice.version}`)?.major;
    if (choice.source === "npm" || major === undefined || major < MIN_SYSTEM_MAJOR) {
      problems.push(
        `ffmpeg: production needs a system ffmpeg ≥ ${MIN_SYSTEM_MAJOR} via FFMPEG_PATH, got ${choice.source} ${choice.version}`,
      );
    }
    if (!hasPrlimit())
      problems.push("prlimit: production runs ffmpeg under resource limits; /usr/bin/prlimit is missing");
  }
  for (const [name, bin] of [
    ["ffmpeg", ffmpegPath()],
    ["ffprobe", ffprobePath()],
  ] as const) {
    const [command, args] = limitedCommand(bin, ["-hide_banner", "-version"]);
    const r = spawnSync(command, args, { encoding: "utf8", env: childEnv() });
    if (r.status !== 0) problems.push(`${name} (${bin}) does not run: ${r.error?.message ?? r.stderr}`);
    else console.log(`${name}: ${r.stdout.split("\n")[0]}`);
  }
  // The MP4 (H.264 + AAC) and the alpha video (VP9 with alpha + Opus) need these encoders.
  const encoders =
    spawnSync(ffmpegPath(), ["-hide_banner", "-encoders"], { encoding: "utf8", env: childEnv() }).stdout ?? "";
  for (const encoder of ["libx264", "aac", "libvpx-vp9", "libopus"]) {
    if (!new RegExp(`\\s${encoder}\\s`).test(encoders)) problems.push(`ffmpeg: no ${encoder} encoder`);
  }
  try {
    const sharp = (await import("sharp")).default;
    await sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    console.log(`sharp: libvips ${sharp.versions.vips}`);
  } catch (err) {
    problems.push(`sharp: ${(err as Error).message}`);
  }
  try {
    const { getHuman, warmHuman, warmMatte } = await import("../analysis/public");
    await getHuman();
    await warmHuman();
    console.log("face models: loaded");
    await warmMatte();
    console.log("segmentation model: loaded");
  } catch (err) {
    problems.push(`face models: ${(err as Error).message.split("\n")[0]}`);
  }
  if (problems.length) {
    for (const p of problems) console.error(`selfcheck: ${p}`);
    process.exit(1);
  }
  console.log("selfcheck: ok");
  process.exit(0);
}

void main();
