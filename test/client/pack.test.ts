import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm pack -w client` as a user gets it: unpacked into a project's node_modules and run with plain `node`.
const exec = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const project = mkdtempSync(join(tmpdir(), "client-pack-"));
const installed = join(project, "node_modules/@avatar-video/client");
const KEY = "av_pack_test_key_0123456789";
/** Plain node, with no loader from this test runner in its options. */
const node = (args: string[], env: Record<string, string> = {}) =>
  exec(process.execPath, args, { cwd: project, env: { PATH: process.env.PATH ?? "", ...env } });
let files: string[] = [];

beforeAll(async () => {
  const { stdout } = await exec("npm", ["pack", "-w", "client", "--json", "--pack-destination", project], {
    cwd: root,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as [{ filename: string; files: { path: string }[] }];
  files = packed.files.map((f) => f.path);
  mkdirSync(installed, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
  await exec("tar", ["-xzf", join(project, packed.filename), "-C", installed, "--strip-components=1"]);
  // Its one runtime dependency (and that one's), as npm would install them.
  for (const dep of ["openapi-fetch", "openapi-typescript-helpers"])
    symlinkSync(join(root, "node_modules", dep), join(project, "node_modules", dep));
  symlinkSync(join(root, "node_modules/@types"), join(project, "node_modules/@types")); // Node's types, for the README example
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("npm pack -w client", () => {
  it("ships compiled JavaScript with types, a README and the license; no TypeScript sources", () => {
    for (const file of ["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js"])
      expect(files).toContain(file);
    expect(files.filter((f) => f.startsWith("src/") || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "@avatar-video/client",
      version: "0.1.0",
      license: "MIT",
      exports: { ".": { types: "./dist/index.d.ts" } },
    });
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
  });

  it("imports in plain node", async () => {
    const script = `import { AvatarVideo, AvatarVideoError, createApiClient } from "@avatar-video/client";
      const av = new AvatarVideo({ baseUrl: "http://127.0.0.1:9", appId: "a", apiKey: "k", maxRetries: 0 });
      const error = await av.avatars.get("x").catch((e) => e);
      console.log(typeof createApiClient, typeof av.waitForVideo, error instanceof AvatarVideoError, error.code);`;
    const { stdout } = await node(["--input-type=module", "-e", script]);
    expect(stdout.trim()).toBe("function function true connection_error");
  });

  it("type checks a consumer, and the README's example, against its .d.ts", async () => {
    const readme = readFileSync(join(installed, "README.md"), "utf8");
    writeFileSync(join(project, "example.ts"), /```ts\n([\s\S]*?)```/.exec(readme)![1]!);
    writeFileSync(
      join(project, "consumer.ts"),
      `import { AvatarVideo, type VideoJobDetail } from "@avatar-video/client";
       const av = new AvatarVideo({ baseUrl: "", appId: "", apiKey: "" });
       export const detail: Promise<VideoJobDetail> = av.waitForVideo("id", { onStage: (stage: string) => stage });
       export const created = av.videos.create({ avatarId: "a", audioUrl: "u" }).then((c) => c.requestId.length);
       // @ts-expect-error a wrong field is caught
       av.avatars.create({ imageURL: "u" });`,
    );
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      lib: ["es2022"],
      types: ["node"],
    };
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions, files: ["consumer.ts", "example.ts"] }),
    );
    const checked = await node([join(root, "node_modules/typescript/bin/tsc"), "-p", "."]).catch((e) => e);
    expect(checked.stdout).toBe("");
  });

  it("has a bin that runs with a node shebang and never prints the key from the environment", async () => {
    const bin = join(installed, JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).bin["avatar-video"]);
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    const env = { AVATAR_VIDEO_API_KEY: KEY, AVATAR_VIDEO_APP_ID: "app" };
    const runs = await Promise.all([
      node([bin, "--help"], env),
      node([bin, "render", "--help"], env),
      node([bin, "--version"], env),
    ]);
    for (const { stdout, stderr } of runs) expect(stdout + stderr).not.toContain(KEY);
    expect(runs[1]?.stdout).toContain("--api-key <key>");
    expect(runs[2]?.stdout.trim()).toBe("0.1.0");
  });
});
