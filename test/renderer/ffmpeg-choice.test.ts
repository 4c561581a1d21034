/**
 * Which ffmpeg the renderer runs (docs/renderer.md "ffmpeg"): FFMPEG_PATH first, else a system ffmpeg ≥ 5
 * on PATH, else the npm build as a fallback. The rule is tested with made-up binaries; the last test
 * checks what this machine actually selects against what its binaries say.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type ChoiceInputs, chooseFfmpeg, ffmpegChoice, parseVersion } from "../../container/src/media/public";

const NPM = {
  ffmpeg: "/app/node_modules/@ffmpeg-installer/linux-x64/ffmpeg",
  ffprobe: "/app/node_modules/@ffprobe-installer/linux-x64/ffprobe",
};
const LINES: Record<string, string> = {
  [NPM.ffmpeg]: "ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2018",
  "/usr/bin/ffmpeg": "ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024 the FFmpeg developers",
  "/opt/old/ffmpeg": "ffmpeg version 4.4.2-0ubuntu0.22.04.1 Copyright (c) 2000-2021",
  "/opt/new/ffmpeg": "ffmpeg version n7.0.2 Copyright (c) 2000-2024",
};

function inputs(env: Record<string, string>, present: string[]): ChoiceInputs {
  return { env, versionOf: (bin) => LINES[bin], isExecutable: (f) => present.includes(f), npm: () => NPM };
}

describe("ffmpeg selection", () => {
  it("parses the version line of Debian, release and git builds", () => {
    expect(parseVersion(LINES["/usr/bin/ffmpeg"])).toEqual({ text: "5.1.6-0+deb12u1", major: 5 });
    expect(parseVersion(LINES["/opt/new/ffmpeg"])).toEqual({ text: "n7.0.2", major: 7 });
    expect(parseVersion(LINES[NPM.ffmpeg])).toEqual({ text: "N-47683-g0e8eb07980-static", major: undefined });
    expect(parseVersion("not ffmpeg")).toBeUndefined();
  });

  it("FFMPEG_PATH/FFPROBE_PATH win (the production image sets them)", () => {
    const c = chooseFfmpeg(
      inputs({ FFMPEG_PATH: "/usr/bin/ffmpeg", FFPROBE_PATH: "/usr/bin/ffprobe", PATH: "/opt/new" }, []),
    );
    expect(c).toEqual({
      ffmpeg: "/usr/bin/ffmpeg",
      ffprobe: "/usr/bin/ffprobe",
      source: "env",
      version: "5.1.6-0+deb12u1",
    });
    expect(chooseFfmpeg(inputs({ FFMPEG_PATH: "/usr/bin/ffmpeg" }, [])).ffprobe).toBe("/usr/bin/ffprobe");
  });

  it("prefers the first system ffmpeg on PATH when it is 5 or newer and has an ffprobe beside it", () => {
    const present = ["/usr/bin/ffmpeg", "/usr/bin/ffprobe", "/opt/new/ffmpeg", "/opt/new/ffprobe"];
    expect(chooseFfmpeg(inputs({ PATH: "/nowhere:/usr/bin" }, present))).toMatchObject({
      ffmpeg: "/usr/bin/ffmpeg",
      source: "system",
      version: "5.1.6-0+deb12u1",
    });
    expect(chooseFfmpeg(inputs({ PATH: "/opt/new:/usr/bin" }, present))).toMatchObject({
      ffmpeg: "/opt/new/ffmpeg",
      ffprobe: "/opt/new/ffprobe",
      source: "system",
    });
  });

  it("falls back to the npm build when the system ffmpeg is older than 5, has no ffprobe, or there is none", () => {
    const npm = { ...NPM, source: "npm", version: "N-47683-g0e8eb07980-static" };
    expect(
      chooseFfmpeg(
        inputs({ PATH: "/opt/old:/usr/bin" }, [
          "/opt/old/ffmpeg",
          "/opt/old/ffprobe",
          "/usr/bin/ffmpeg",
          "/usr/bin/ffprobe",
        ]),
      ),
    ).toEqual(npm);
    expect(chooseFfmpeg(inputs({ PATH: "/usr/bin" }, ["/usr/bin/ffmpeg"]))).toEqual(npm);
    expect(chooseFfmpeg(inputs({ PATH: "/usr/bin" }, []))).toEqual(npm);
    expect(chooseFfmpeg(inputs({ PATH: "relative/bin" }, ["relative/bin/ffmpeg", "relative/bin/ffprobe"]))).toEqual(
      npm,
    );
  });

  it("on this machine the choice matches what the chosen binary reports", () => {
    const c = ffmpegChoice();
    const line = spawnSync(c.ffmpeg, ["-hide_banner", "-version"], { encoding: "utf8" }).stdout.split("\n")[0];
    expect(parseVersion(line)?.text).toBe(c.version);
    expect(spawnSync(c.ffprobe, ["-hide_banner", "-version"]).status).toBe(0);
    if (c.source === "system") expect(parseVersion(line)!.major).toBeGreaterThanOrEqual(5);
  });
});
