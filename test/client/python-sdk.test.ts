import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { avatar, AVATAR_ID } from "./fixtures.js";
import { useScriptedServer } from "./scripted-server.js";

// The Python SDK (clients/python): its unittest suite, its generated models' freshness, and its wheel and sdist
// built offline, installed with pip and imported by a Python without site-packages (standard library only).
const exec = promisify(execFile);
const dir = "clients/python";
const out = mkdtempSync(join(tmpdir(), "python-sdk-"));
const server = useScriptedServer();
const outcome = (run: Promise<{ stdout: string; stderr: string }>) =>
  run.then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("Python SDK", () => {
  it("passes its unittest suite", async () => {
    const run = await outcome(
      exec("python3", ["-m", "unittest", "discover", "-s", "tests", "-t", "."], {
        cwd: dir,
        env: { ...process.env, PYTHONPATH: "src", PYTHONDONTWRITEBYTECODE: "1" },
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran \d+ tests in [\d.]+s\n\nOK/);
  });

  it("has models generated from the current OpenAPI snapshot (run `npm run client:generate`)", async () => {
    const check = await outcome(exec("node_modules/.bin/tsx", [`${dir}/scripts/generate-models.ts`, "--check"]));
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
  });

  it("builds a wheel and an sdist offline that pip installs and a bare Python runs", async () => {
    await exec("python3", ["-m", "pip", "wheel", "--no-deps", "--no-index", "--wheel-dir", out, dir]);
    const backend = "import sys; sys.path.insert(0, 'build_backend'); import avatar_video_build as b;";
    await exec("python3", ["-c", `${backend} b.build_sdist(${JSON.stringify(out)})`], { cwd: dir });
    const built = readdirSync(out).sort();
    expect(built).toEqual(["avatar_video-0.1.0-py3-none-any.whl", "avatar_video-0.1.0.tar.gz"]);
    const { stdout: listing } = await exec("python3", ["-m", "zipfile", "-l", join(out, built[0]!)]);
    for (const file of ["avatar_video/models.py", "avatar_video/py.typed", "avatar_video-0.1.0.dist-info/METADATA"])
      expect(listing).toContain(file);
    const { stdout: members } = await exec("tar", ["-tzf", join(out, built[1]!)]);
    for (const file of ["PKG-INFO", "pyproject.toml", "LICENSE", "build_backend/avatar_video_build.py"])
      expect(members).toContain(`avatar_video-0.1.0/${file}`);

    // Installed from each archive (the sdist is built into a wheel again by pip), then run with no site-packages.
    for (const [archive, target] of [
      [built[0]!, "from-wheel"],
      [built[1]!, "from-sdist"],
    ]) {
      const pip = ["-m", "pip", "install", "--no-deps", "--no-index", "--target", join(out, target)];
      await exec("python3", [...pip, join(out, archive)]);
      server.answer({ body: { avatar: avatar() } });
      const script = `from avatar_video import AvatarVideo; print(AvatarVideo().avatars.get("${AVATAR_ID}").name)`;
      const env = {
        PATH: process.env.PATH ?? "",
        PYTHONPATH: join(out, target),
        AVATAR_VIDEO_BASE_URL: server.url,
        AVATAR_VIDEO_APP_ID: "app-py",
        AVATAR_VIDEO_API_KEY: "key-py",
      };
      const { stdout } = await exec("python3", ["-S", "-c", script], { env });
      expect(stdout).toBe("Ada\n");
      expect(server.seen.at(-1)?.headers["user-agent"]).toBe("avatar-video-python/0.1.0");
    }
  });
});
