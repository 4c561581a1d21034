/**
 * Which ffmpeg/ffprobe the renderer runs (docs/renderer.md "ffmpeg"), and a small process runner.
 *
 * Order: FFMPEG_PATH/FFPROBE_PATH (the production image sets them to Debian's maintained build), else a
 * system ffmpeg ≥ 5 found on PATH (with its ffprobe beside it), else the npm `@ffmpeg-installer` binaries
 * (an unmaintained 2018 build: a local fallback only). Chosen once per process; `/health` reports it.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { childEnv, spawnMedia } from "./child-process";

const require = createRequire(import.meta.url);

export const MIN_SYSTEM_MAJOR = 5;

/** The first arguments of an ffmpeg that writes a file: no banner, no stdin, errors only, overwrite it. */
export const FFMPEG_QUIET: readonly string[] = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];

export interface FfmpegChoice {
  ffmpeg: string;
  ffprobe: string;
  source: "env" | "system" | "npm";
  /** The version as the binary states it ("5.1.6-0+deb12u1"), or "unknown". */
  version: string;
}

/** "ffmpeg version 5.1.6-0+deb12u1 Copyright …" → "5.1.6-0+deb12u1"; its major is 5 ("n6.1" → 6). */
export function parseVersion(firstLine: string): { text: string; major?: number } | undefined {
  const m = /^ffmpeg version (\S+)/.exec(firstLine.trim());
  if (!m) return undefined;
  const num = /^n?(\d+)\.(\d+)/.exec(m[1]);
  return { text: m[1], major: num ? Number(num[1]) : undefined };
}

export interface ChoiceInputs {
  env: Record<string, string | undefined>;
  /** First line of `<bin> -version`, or undefined when it does not run. */
  versionOf(bin: string): string | undefined;
  /** An executable file at this path? */
  isExecutable(file: string): boolean;
  npm(): { ffmpeg: string; ffprobe: string };
}

/** The selection rule, pure (unit-tested with made-up binaries). */
export function chooseFfmpeg(io: ChoiceInputs): FfmpegChoice {
  const versionText = (bin: string) => parseVersion(io.versionOf(bin) ?? "")?.text ?? "unknown";
  if (io.env.FFMPEG_PATH) {
    const ffmpeg = io.env.FFMPEG_PATH;
    const ffprobe = io.env.FFPROBE_PATH || path.join(path.dirname(ffmpeg), "ffprobe");
    return { ffmpeg, ffprobe, source: "env", version: versionText(ffmpeg) };
  }
  for (const dir of (io.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const ffmpeg = path.join(dir, "ffmpeg");
    const ffprobe = path.join(dir, "ffprobe");
    if (!io.isExecutable(ffmpeg) || !io.isExecutable(ffprobe)) continue;
    const v = parseVersion(io.versionOf(ffmpeg) ?? "");
    if (v?.major !== undefined && v.major >= MIN_SYSTEM_MAJOR)
      return { ffmpeg, ffprobe, source: "system", version: v.text };
    break; // the first ffmpeg on PATH is the one a shell would run: too old or unknown → the npm build
  }
  const npm = io.npm();
  return { ...npm, source: "npm", version: versionText(npm.ffmpeg) };
}

const systemInputs: ChoiceInputs = {
  env: process.env,
  versionOf(bin) {
    const r = spawnSync(bin, ["-hide_banner", "-version"], { encoding: "utf8", timeout: 10_000, env: childEnv() });
    return r.status === 0 ? r.stdout.split("\n")[0] : undefined;
  },
  isExecutable(file) {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  npm: () => ({
    ffmpeg: (require("@ffmpeg-installer/ffmpeg") as { path: string }).path,
    ffprobe: (require("@ffprobe-installer/ffprobe") as { path: string }).path,
  }),
};

let chosen: FfmpegChoice | undefined;

/** The binaries this process runs (chosen on first use). */
export function ffmpegChoice(): FfmpegChoice {
  chosen ??= chooseFfmpeg(systemInputs);
  return chosen;
}

export function ffmpegPath(): string {
  return ffmpegChoice().ffmpeg;
}

export function ffprobePath(): string {
  return ffmpegChoice().ffprobe;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** stdout exceeded maxStdout and the process was killed. */
  truncated: boolean;
}

/** Kill a child (SIGKILL after a grace period) when the signal aborts. Returns a disposer. */
export function killOnAbort(child: ChildProcess, signal?: AbortSignal): () => void {
  if (!signal) return () => {};
  const onAbort = () => {
    child.kill("SIGTERM");
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 2000).unref();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** Run a media tool to completion (limited, child-process.ts), collecting stdout (bytes) and the tail of stderr. */
export function run(
  bin: string,
  args: string[],
  opts: { signal?: AbortSignal; maxStdout?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawnMedia(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let outLen = 0;
    let err = "";
    let truncated = false;
    const dispose = killOnAbort(child, opts.signal);
    child.stdout!.on("data", (b: Buffer) => {
      outLen += b.length;
      if (truncated) return;
      if (opts.maxStdout !== undefined && outLen > opts.maxStdout) {
        truncated = true;
        child.kill("SIGKILL");
        return;
      }
      out.push(b);
    });
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString("utf8");
      if (err.length > 16_384) err = err.slice(-8_192);
    });
    child.on("error", (e) => {
      dispose();
      reject(e);
    });
    child.on("close", (code, sig) => {
      dispose();
      resolve({ code, signal: sig, stdout: Buffer.concat(out), stderr: err, truncated });
    });
  });
}

/** Throw the abort reason when the signal is aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error("aborted");
}
