/**
 * Render benchmark: a speech-like clip (default 60 s) at 1024×1024 and 1920×1080.
 *
 *   npm run bench:render -- [--seconds 60] [--size 512 | --sizes 1024x1024,1920x1080] [--floors | --skip-floors] [--skip-quality] [--portrait file.png --rig rig.json --matte matte.png] [--alpha | --performance JSON | --segments N]
 *
 * Long clips (issue 8: `--seconds 3600 --size 512`) loop 60 s of synthesized speech with ffmpeg, so the
 * bench process holds the same audio for every length and its peak RSS (printed, with the render's own
 * samples and ffmpeg's) is the renderer's. The encode floors run by default up to 600 s (`--floors` forces them,
 * `--skip-floors` skips them).
 *
 * For each size it measures, in the same run (floors: scripts/lib/encode-floors.ts):
 *  - the encode floor, two ways, both with the same x264/AAC settings and the same audio:
 *    (a) the renderer's own ffmpeg command fed N identical raw frames of the still composed canvas
 *        (strict: no decoding or colour conversion at all), and
 *    (b) ffmpeg looping a PNG of that canvas (-loop 1), the usual "encode a still image" command;
 *  - the full render (renderVideo): wall time, real-time factor (media seconds / wall seconds),
 *    ratio to the floor, peak RSS of node and of the ffmpeg child (VmHWM from /proc);
 *  - the MP4's size and its SSIM against a lossless encode of the same frames (scripts/lib/output-quality.ts;
 *    by default up to 600 s, `--skip-quality` skips it).
 * Without --portrait/--rig it uses the test portrait fixture through createAvatarAssets when present.
 *
 * --alpha (no floors): the same job without and with `alpha: true` (the WebM with alpha beside the MP4),
 * alternated over two rounds, and the ratio of their wall times (docs/rendering.md, "The person matte").
 * --performance '{"expression":"happy","headMotion":2}' (no floors): the same, without and with that
 * `video.performance` (docs/performance.md, "Cost"), with the ratio of their CPU times too; with `--once`, only
 * the job with it, rendered once like a plain run (to time whole processes from outside, paired with the same
 * command without `--performance`).
 *
 * --segments N (no floors): the same clip whole and as N segments of a split render, each alone, with the audio
 * track and the join (scripts/lib/bench-segments.ts; docs/operations.md, "Capacity").
 *
 * --compare <git-ref> [--rounds 2]: that ref's own bench, built in a worktree, alternated A/B with this tree's,
 * and the median figures per size side by side (scripts/lib/bench-compare.ts).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderVideo, makeTimeline, type RenderSettings } from "../container/src/video/public";
import { ffmpegChoice, ffmpegPath, run } from "../container/src/media/public";
import { type AvatarRig, PERFORMANCE_DEFAULTS, VIDEO_DEFAULTS } from "@avatar-video/contract";
import { encodeAudio, speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";
import { argsForEachSide, compareRefs } from "./lib/bench-compare";
import { benchSegments } from "./lib/bench-segments";
import { floorRun, pngLoopFloor } from "./lib/encode-floors";
import { LOSSLESS_VIDEO_ARGS, ssimAgainst } from "./lib/output-quality";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    size: { type: "string" },
    sizes: { type: "string", default: "1024x1024,1920x1080" },
    floors: { type: "boolean" },
    "skip-floors": { type: "boolean" },
    "skip-quality": { type: "boolean" },
    threads: { type: "string" },
    portrait: { type: "string" },
    rig: { type: "string" },
    matte: { type: "string" },
    alpha: { type: "boolean" },
    performance: { type: "string" },
    once: { type: "boolean" },
    fixture: { type: "string" },
    label: { type: "string" },
    compare: { type: "string" },
    rounds: { type: "string" },
    segments: { type: "string" },
  },
});

function arg(name: keyof typeof opts, def?: string): string | undefined {
  const v = opts[name];
  return typeof v === "string" ? v : def;
}

/** "512" → 512×512, "1280x720" → 1280×720. */
const parseSize = (s: string) =>
  (s.includes("x") ? s.split("x").map(Number) : [Number(s), Number(s)]) as [number, number];

async function loadAvatar(
  work: string,
): Promise<{ portraitPng: Buffer; rig: AvatarRig; matte?: Buffer; label: string }> {
  const p = arg("portrait");
  const r = arg("rig");
  const m = arg("matte");
  if (p && r)
    return {
      portraitPng: readFileSync(p),
      rig: JSON.parse(readFileSync(r, "utf8")),
      matte: m ? readFileSync(m) : undefined,
      label: arg("label") ?? p,
    };
  const dir = join(import.meta.dirname, "..", "test", "fixtures", "portraits");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.(jpe?g|png)$/i.test(f))
        .sort()
    : [];
  if (!files.length) throw new Error("no portrait: pass --portrait and --rig, or add test/fixtures/portraits/*");
  const file = arg("fixture") ?? (files.includes("single-phone.jpg") ? "single-phone.jpg" : files[0]);
  // Preprocess in a child process so this process (whose memory is reported) never loads the face models.
  const portraitPath = join(work, "portrait.png");
  const rigPath = join(work, "rig.json");
  const mattePath = join(work, "matte.png");
  const code = [
    `import { readFileSync, writeFileSync } from "node:fs";`,
    `import { createAvatarAssets } from ${JSON.stringify(join(import.meta.dirname, "..", "container", "src", "avatar", "preprocess.ts"))};`,
    `const a = await createAvatarAssets(readFileSync(${JSON.stringify(join(dir, file))}));`,
    `writeFileSync(${JSON.stringify(portraitPath)}, a.portraitPng);`,
    `writeFileSync(${JSON.stringify(rigPath)}, JSON.stringify(a.rig));`,
    `if (a.mattePng) writeFileSync(${JSON.stringify(mattePath)}, a.mattePng);`,
  ].join("\n");
  const script = join(work, "prep.mts");
  writeFileSync(script, code);
  const res = spawnSync(process.execPath, [...process.execArgv, script], { stdio: "inherit" });
  if (res.status !== 0) throw new Error("avatar preprocessing failed");
  const matte = existsSync(mattePath) ? readFileSync(mattePath) : undefined;
  return {
    portraitPng: readFileSync(portraitPath),
    rig: JSON.parse(readFileSync(rigPath, "utf8")),
    matte,
    label: file,
  };
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

/** CPU seconds of this process (all threads) and of its exited, reaped children (ffmpeg), from /proc. */
function cpuNow(): { self: number; children: number } {
  try {
    const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const tck = 100; // USER_HZ
    return { self: (Number(f[11]) + Number(f[12])) / tck, children: (Number(f[13]) + Number(f[14])) / tck };
  } catch {
    const u = process.cpuUsage();
    return { self: (u.user + u.system) / 1e6, children: 0 };
  }
}
const cpuSince = (a: { self: number; children: number }) => {
  const b = cpuNow();
  return { node: b.self - a.self, ffmpeg: b.children - a.children };
};

async function main() {
  if (opts.compare)
    return compareRefs(opts.compare, argsForEachSide(process.argv.slice(2)), Number(arg("rounds", "2")));
  const seconds = Number(arg("seconds", "60"));
  if (!(seconds > 0)) throw new Error("--seconds must be a positive number");
  const sizes = (opts.size ? [opts.size] : (arg("sizes") ?? "").split(",")).map(parseSize);
  // (Not `performance`: that is the clock timedRender reads.)
  const direction =
    opts.performance === undefined ? undefined : { ...PERFORMANCE_DEFAULTS, ...JSON.parse(opts.performance) };
  const side = opts.alpha || opts.segments || (direction !== undefined && !opts.once); // side by side: no floors, no SSIM
  // (The floors and the SSIM reference are of the job without a performance.)
  const floors = opts["skip-floors"] || side || direction ? false : (opts.floors ?? seconds <= 600);
  const quality = !opts["skip-quality"] && !side && !direction && seconds <= 600;
  const work = mkdtempSync(join(tmpdir(), "bench-render-"));
  try {
    const avatar = await loadAvatar(work);
    const audioPath = join(work, "speech.m4a");
    // At most 60 s are synthesized (in memory); longer clips repeat them (ffmpeg, streamed).
    const base = join(work, "speech-base.wav");
    await encodeAudio(synthSpeech(speechLike(Math.min(seconds, 60), 3), 24_000), 24_000, base, "wav");
    const looped = await run(ffmpegPath(), [
      "-v",
      "error",
      "-y",
      "-stream_loop",
      "-1",
      "-i",
      base,
      "-t",
      String(seconds),
      "-c:a",
      "aac",
      "-b:a",
      "96k",
      audioPath,
    ]);
    if (looped.code !== 0) throw new Error(`audio loop failed: ${looped.stderr}`);
    console.log(
      `portrait ${avatar.label} (${avatar.rig.portrait.width}×${avatar.rig.portrait.height}), audio ${seconds} s speech-like, ${cpus().length} cores, ffmpeg ${ffmpegChoice().version} (${ffmpegChoice().source})`,
    );
    // One render at a size, with its wall time and CPU (this process and its ffmpeg children).
    const timedRender = async (width: number, height: number, extra: Extra = {}, videoArgs?: string[]) => {
      const t0 = performance.now();
      const c0 = cpuNow();
      const r = await renderVideo({
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
        matte: avatar.matte,
        audioPath,
        settings: {
          width,
          height,
          fit: "crop",
          backgroundColor: "#000000",
          backgroundFit: "cover",
          leadInSeconds: 0,
          leadOutSeconds: 0,
          ...extra,
        },
        workDir: videoArgs ? join(work, "reference") : work,
        threads: arg("threads") ? Number(arg("threads")) : undefined,
        videoArgs,
      });
      return { r, ms: performance.now() - t0, cpu: cpuSince(c0) };
    };
    // The MP4's size and, after the timed runs, its SSIM against the same job encoded losslessly.
    const outputLine = async (width: number, height: number, mp4: string) => {
      const size = `  output ${mb(statSync(mp4).size)} (${statSync(mp4).size} bytes)`;
      if (!quality) return size;
      mkdirSync(join(work, "reference"), { recursive: true });
      const ref = await timedRender(width, height, {}, LOSSLESS_VIDEO_ARGS);
      return `${size}; SSIM against lossless ${(await ssimAgainst(mp4, ref.r.mp4Path)).toFixed(5)}`;
    };
    for (const [width, height] of sizes) {
      const tl = makeTimeline(seconds, 0, 0);
      if (opts.alpha) {
        await sideBySide(width, height, timedRender, "alpha: true", { alpha: true });
        continue;
      }
      if (opts.segments) {
        const settings = { ...VIDEO_DEFAULTS, width, height };
        await benchSegments({ ...avatar, audioPath, settings }, Number(opts.segments), work);
        continue;
      }
      if (direction && !opts.once) {
        await sideBySide(width, height, timedRender, `performance ${opts.performance}`, { performance: direction });
        continue;
      }
      if (!floors) {
        const { r, ms, cpu } = await timedRender(width, height, direction ? { performance: direction } : {});
        console.log(
          [
            `${width}×${height}: ${r.frames} frames (${r.durationSeconds.toFixed(2)} s)`,
            `  wall time ${(ms / 1000).toFixed(1)} s → real-time factor ${(r.durationSeconds / (ms / 1000)).toFixed(2)}`,
            `  CPU ${(cpu.node + cpu.ffmpeg).toFixed(1)} s (node ${cpu.node.toFixed(1)}, ffmpeg ${cpu.ffmpeg.toFixed(1)}); load average ${loadavg()
              .map((x) => x.toFixed(1))
              .join(" ")}`,
            `  peak RSS: bench process ${mb(process.resourceUsage().maxRSS * 1024)} (render's samples ${mb(r.memory.nodePeakRss)}), ffmpeg ${mb(r.memory.ffmpegPeakRss)}`,
            `  timings ${JSON.stringify(r.timings)}`,
            await outputLine(width, height, r.mp4Path),
          ].join("\n"),
        );
        continue;
      }
      let c = cpuNow();
      const floorInput = {
        width,
        height,
        frames: tl.frames,
        audioPath,
        audioStart: tl.speechStart,
        durationSeconds: tl.durationSeconds,
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
      };
      const floor = await floorRun({ ...floorInput, out: join(work, `floor-${width}x${height}.mp4`) });
      const floorCpu = cpuSince(c);
      c = cpuNow();
      const pngFloorMs = await pngLoopFloor({
        ...floorInput,
        out: join(work, `floor-png-${width}x${height}.mp4`),
        work,
      });
      const pngCpu = cpuSince(c);
      const { r, ms, cpu: renderCpu } = await timedRender(width, height);
      const cpuStr = (x: { node: number; ffmpeg: number }) =>
        `${(x.node + x.ffmpeg).toFixed(2)} s (node ${x.node.toFixed(2)}, ffmpeg ${x.ffmpeg.toFixed(2)})`;
      const rtf = r.durationSeconds / (ms / 1000);
      console.log(
        [
          `${width}×${height}: ${r.frames} frames (${r.durationSeconds.toFixed(2)} s)`,
          `  render ${(ms / 1000).toFixed(2)} s → real-time factor ${rtf.toFixed(2)}`,
          `  encode floor (identical raw frames piped): ${(floor.ms / 1000).toFixed(2)} s (RTF ${(r.durationSeconds / (floor.ms / 1000)).toFixed(2)}) → ratio ${(ms / floor.ms).toFixed(2)}×`,
          `  encode floor (ffmpeg -loop 1 still.png): ${(pngFloorMs / 1000).toFixed(2)} s (RTF ${(r.durationSeconds / (pngFloorMs / 1000)).toFixed(2)}) → ratio ${(ms / pngFloorMs).toFixed(2)}×`,
          `  CPU: render ${cpuStr(renderCpu)}; raw floor ${cpuStr(floorCpu)} → ${((renderCpu.node + renderCpu.ffmpeg) / (floorCpu.node + floorCpu.ffmpeg)).toFixed(2)}×; png floor ${cpuStr(pngCpu)}`,
          `  load average during the run: ${loadavg()
            .map((x) => x.toFixed(1))
            .join(" ")}`,
          `  peak RSS node ${mb(r.memory.nodePeakRss)}, ffmpeg ${mb(r.memory.ffmpegPeakRss)} (floor ffmpeg ${mb(floor.ffmpegPeak)}), sum ${mb(r.memory.nodePeakRss + r.memory.ffmpegPeakRss)}`,
          `  re-rendered frames ${r.renderedFrames}/${r.frames}; timings ${JSON.stringify(r.timings)}`,
          await outputLine(width, height, r.mp4Path),
        ].join("\n"),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Settings a side-by-side run adds to the job. */
type Extra = Pick<RenderSettings, "alpha" | "performance">;

type TimedRender = (
  w: number,
  h: number,
  extra?: Extra,
  videoArgs?: string[],
) => Promise<{ r: Awaited<ReturnType<typeof renderVideo>>; ms: number; cpu: { node: number; ffmpeg: number } }>;

/** The same job without and with `extra`, alternated over two rounds: wall, CPU, outputs, ratios. */
async function sideBySide(width: number, height: number, timedRender: TimedRender, label: string, extra: Extra) {
  const walls: Record<"without" | "with", number[]> = { without: [], with: [] };
  const cpuTotals: Record<"without" | "with", number[]> = { without: [], with: [] };
  for (let round = 1; round <= 2; round++) {
    for (const on of [false, true]) {
      const { r, ms, cpu } = await timedRender(width, height, on ? extra : {});
      walls[on ? "with" : "without"].push(ms);
      cpuTotals[on ? "with" : "without"].push(cpu.node + cpu.ffmpeg);
      const out = `MP4 ${mb(statSync(r.mp4Path).size)}${r.webmPath ? `, WebM ${mb(statSync(r.webmPath).size)}` : ""}`;
      console.log(
        `${width}×${height} round ${round} ${on ? label : "without"}: wall ${(ms / 1000).toFixed(2)} s, CPU node ${cpu.node.toFixed(1)} s + ffmpeg ${cpu.ffmpeg.toFixed(1)} s, ${out}; load ${loadavg()[0].toFixed(1)}`,
      );
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `${width}×${height}: with ${label} the job takes ${(mean(walls.with) / mean(walls.without)).toFixed(3)}× the wall time and ${(mean(cpuTotals.with) / mean(cpuTotals.without)).toFixed(3)}× the CPU of the same job without it (mean of 2 rounds each)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
