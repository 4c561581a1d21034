/**
 * How the renderer starts ffmpeg and ffprobe on untrusted media (docs/renderer.md "ffmpeg"): under resource
 * limits and with an environment of their own. `prlimit` (util-linux, in the image) caps the child's address
 * space and CPU time, so a decoder bomb or a runaway encode ends with the child, not the renderer; without
 * prlimit on the system (a developer's Mac) the child runs unlimited. The child's environment carries only
 * what a media tool needs: never RENDERER_TOKEN or anything else of the renderer's.
 *
 * FFMPEG_MAX_MEMORY_MB (default 6144) and FFMPEG_MAX_CPU_SECONDS (default 14400) set the limits.
 */
import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

const PRLIMIT = "/usr/bin/prlimit";
/** The variables a media tool may see (locale and temp dir: formats, subtitles, scratch files). */
const PASSED_ENV = ["PATH", "LANG", "LC_ALL", "TZ", "TMPDIR", "HOME"] as const;

export interface ChildLimits {
  addressSpaceBytes: number;
  cpuSeconds: number;
}

const positive = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${raw})`);
  return n;
};

export function childLimits(): ChildLimits {
  return {
    addressSpaceBytes: positive("FFMPEG_MAX_MEMORY_MB", 6144) * 1024 * 1024,
    cpuSeconds: positive("FFMPEG_MAX_CPU_SECONDS", 14_400),
  };
}

let prlimitWorks: boolean | undefined;
/** Is prlimit here and allowed to set limits (it is in the image; a sandbox may forbid it)? Checked once. */
export function hasPrlimit(): boolean {
  if (prlimitWorks === undefined) {
    try {
      accessSync(PRLIMIT, constants.X_OK);
      prlimitWorks = spawnSync(PRLIMIT, ["--cpu=60", "--", "true"], { timeout: 5000 }).status === 0;
    } catch {
      prlimitWorks = false;
    }
  }
  return prlimitWorks;
}

/** The command line that runs `bin args` under the limits (prlimit when present). */
export function limitedCommand(bin: string, args: string[], limits = childLimits()): [string, string[]] {
  if (!hasPrlimit()) return [bin, args];
  return [PRLIMIT, [`--as=${limits.addressSpaceBytes}`, `--cpu=${limits.cpuSeconds}`, "--", bin, ...args]];
}

/** The child's environment: the few variables of PASSED_ENV that are set, nothing else. */
export function childEnv(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED_ENV) if (from[name] !== undefined) env[name] = from[name];
  return env;
}

/** spawn() for a media tool: limited, with its own environment. */
export function spawnMedia(bin: string, args: string[], options: Omit<SpawnOptions, "env">): ChildProcess {
  const [command, argv] = limitedCommand(bin, args);
  return spawn(command, argv, { ...options, env: childEnv() });
}
