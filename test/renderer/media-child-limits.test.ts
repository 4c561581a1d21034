import { afterEach, describe, expect, it } from "vitest";
import {
  childEnv,
  childLimits,
  ffmpegPath,
  hasPrlimit,
  limitedCommand,
  run,
  spawnMedia,
} from "../../container/src/media/public";

// ffmpeg children run under resource limits and without the renderer's secrets (docs/renderer.md "ffmpeg").

const saved = { ...process.env };
afterEach(() => {
  for (const k of ["RENDERER_TOKEN", "FFMPEG_MAX_MEMORY_MB", "FFMPEG_MAX_CPU_SECONDS", "SECRET_THING"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const output = (bin: string, args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const child = spawnMedia(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (b: Buffer) => (out += b.toString("utf8")));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });

describe("media children", () => {
  it("see only the variables a media tool needs: never RENDERER_TOKEN", async () => {
    process.env.RENDERER_TOKEN = "a-very-secret-renderer-token";
    process.env.SECRET_THING = "x";
    const env = childEnv();
    expect(env.PATH).toBe(process.env.PATH);
    expect(env).not.toHaveProperty("RENDERER_TOKEN");
    expect(env).not.toHaveProperty("SECRET_THING");
    const seen = await output("/bin/sh", ["-c", 'echo "token=$RENDERER_TOKEN"; env']);
    expect(seen).toContain("token=\n");
    expect(seen).not.toContain("a-very-secret-renderer-token");
  });

  it.skipIf(!hasPrlimit())("run under prlimit: address space and CPU time capped as configured", async () => {
    process.env.FFMPEG_MAX_MEMORY_MB = "3072";
    process.env.FFMPEG_MAX_CPU_SECONDS = "1234";
    expect(childLimits()).toEqual({ addressSpaceBytes: 3072 * 1024 * 1024, cpuSeconds: 1234 });
    const [command, args] = limitedCommand("ffmpeg", ["-version"]);
    expect(command).toBe("/usr/bin/prlimit");
    expect(args).toEqual([`--as=${3072 * 1024 * 1024}`, "--cpu=1234", "--", "ffmpeg", "-version"]);
    // What the child itself sees (ulimit -v is in KiB).
    expect((await output("/bin/sh", ["-c", "ulimit -v; ulimit -t"])).trim().split("\n")).toEqual([
      String(3072 * 1024),
      "1234",
    ]);
  });

  it.skipIf(!hasPrlimit())(
    "ffmpeg that needs more memory than allowed fails instead of taking the renderer with it",
    async () => {
      process.env.FFMPEG_MAX_MEMORY_MB = "2048";
      expect((await run(ffmpegPath(), ["-hide_banner", "-version"])).code).toBe(0);
      process.env.FFMPEG_MAX_MEMORY_MB = "8";
      expect((await run(ffmpegPath(), ["-hide_banner", "-version"])).code).not.toBe(0);
    },
  );

  it("a bad limit is refused with the variable's name", () => {
    process.env.FFMPEG_MAX_CPU_SECONDS = "soon";
    expect(() => childLimits()).toThrow("FFMPEG_MAX_CPU_SECONDS must be a positive integer");
  });
});
