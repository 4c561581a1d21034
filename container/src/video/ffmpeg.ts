/**
 * ffmpeg / ffprobe binaries from the npm installers and a small process runner.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let ffmpegBin: string | undefined;
let ffprobeBin: string | undefined;

export function ffmpegPath(): string {
  ffmpegBin ??= process.env.FFMPEG_PATH || (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  return ffmpegBin;
}

export function ffprobePath(): string {
  ffprobeBin ??= process.env.FFPROBE_PATH || (require("@ffprobe-installer/ffprobe") as { path: string }).path;
  return ffprobeBin;
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

/** Run a binary to completion, collecting stdout (bytes) and the tail of stderr. */
export function run(
  bin: string,
  args: string[],
  opts: { signal?: AbortSignal; maxStdout?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
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
