import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { avatar, AVATAR_ID } from "./fixtures.js";
import { useScriptedServer } from "./scripted-server.js";

// `npm pack -w client` as a user gets it: `npm install`ed from the tarball into a fresh project (offline: its one
// dependency is packed from this checkout's node_modules, as the registry would serve it), then used from
// ESM and CommonJS on Node 20 and 22.
const exec = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const project = mkdtempSync(join(tmpdir(), "client-pack-"));
const installed = join(project, "node_modules/@avatar-video/client");
const KEY = "av_pack_test_key_0123456789";
const server = useScriptedServer();
const { version } = JSON.parse(readFileSync(join(root, "client/package.json"), "utf8"));

/** The machine's Node (the first `node` on PATH outside node_modules) and the `node` dev dependency's. */
const systemNode = process.env.PATH?.split(delimiter)
  .filter((dir) => !dir.includes("node_modules"))
  .map((dir) => join(dir, "node"))
  .find(existsSync);
const NODES = { "20": systemNode ?? "node", "22": join(root, "node_modules/node/bin/node") };

/** Runs in the consumer project with nothing from this test runner in its environment. */
const run = (file: string, args: string[], env: Record<string, string> = {}) =>
  exec(file, args, { cwd: project, env: { PATH: process.env.PATH ?? "", ...env } });
let files: string[] = [];

beforeAll(async () => {
  const { stdout } = await exec("npm", ["pack", "-w", "client", "--json", "--pack-destination", project], {
    cwd: root,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as [{ filename: string; files: { path: string }[] }];
  files = packed.files.map((f) => f.path);
  const deps = ["openapi-fetch", "openapi-typescript-helpers"].map((name) => `./node_modules/${name}`);
  const { stdout: depNames } = await exec("npm", ["pack", "--ignore-scripts", "--pack-destination", project, ...deps], {
    cwd: root,
  });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  const tarballs = [packed.filename, ...depNames.trim().split("\n")].map((name) => `./${name}`);
  const cache = join(project, ".npm-cache");
  await exec("npm", ["install", "--offline", "--no-audit", "--no-fund", "--cache", cache, ...tarballs], {
    cwd: project,
  });
  symlinkSync(join(root, "node_modules/@types"), join(project, "node_modules/@types")); // Node's types, for tsc
}, 180_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("npm pack -w client", () => {
  it("ships ESM and CommonJS builds with types and source maps, the bin, README, changelog and license", () => {
    const shipped = [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "bin/avatar-video.js",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/index.js.map",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/package.json",
      "dist/cli/main.js",
    ];
    for (const file of shipped) expect(files).toContain(file);
    expect(files.filter((f) => f.startsWith("src/") || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
    const map = JSON.parse(readFileSync(join(installed, "dist/api.js.map"), "utf8"));
    expect(map.sourcesContent?.[0]).toContain("export function createTransport");
  });

  it("has a manifest complete for a registry", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "@avatar-video/client",
      version,
      license: "MIT",
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\//), directory: "client" },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      engines: { node: ">=20" },
      exports: {
        ".": {
          import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
          require: { types: "./dist/cjs/index.d.ts", default: "./dist/cjs/index.js" },
        },
      },
    });
    expect(manifest.keywords.length).toBeGreaterThanOrEqual(5);
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
    expect(readFileSync(join(root, "client/src/version.ts"), "utf8")).toContain(`VERSION = "${version}"`);
  });

  const SCRIPT = `const av = new AvatarVideo();
    const got = await av.avatars.get("${AVATAR_ID}");
    const error = await av.avatars.get("x", { maxRetries: 0 }).catch((e) => e);
    console.log(JSON.stringify([got.id, error instanceof AvatarVideoError, error.status, typeof createApiClient]));`;

  for (const [major, node] of Object.entries(NODES)) {
    it(`imports and requires on Node ${major}, reading AVATAR_VIDEO_* from the environment`, async () => {
      expect((await run(node, ["--version"])).stdout).toMatch(new RegExp(`^v${major}\\.`));
      writeFileSync(
        join(project, "esm.mjs"),
        `import { AvatarVideo, AvatarVideoError, createApiClient } from "@avatar-video/client";\n${SCRIPT}`,
      );
      writeFileSync(
        join(project, "cjs.cjs"),
        `const { AvatarVideo, AvatarVideoError, createApiClient } = require("@avatar-video/client");\n(async () => {${SCRIPT}})();`,
      );
      const env = { AVATAR_VIDEO_BASE_URL: server.url, AVATAR_VIDEO_APP_ID: "app-env", AVATAR_VIDEO_API_KEY: KEY };
      const notFound = { status: 404, body: { error: { code: "not_found", message: "no", requestId: "r" } } };
      server.answer({ body: { avatar: avatar() } }, notFound, { body: { avatar: avatar() } }, notFound);
      const outputs = [await run(node, ["esm.mjs"], env), await run(node, ["cjs.cjs"], env)];
      for (const { stdout } of outputs) expect(JSON.parse(stdout)).toEqual([AVATAR_ID, true, 404, "function"]);
      expect(server.seen.map((r) => [r.headers["x-app-id"], r.headers["user-agent"]])).toEqual(
        Array(4).fill(["app-env", `avatar-video-node/${version}`]),
      );
    });
  }

  it("type checks ESM and CommonJS consumers, and the README's example, against its .d.ts", async () => {
    const readme = readFileSync(join(installed, "README.md"), "utf8");
    writeFileSync(join(project, "example.mts"), /```ts\n([\s\S]*?)```/.exec(readme)![1]!);
    const consumer = `const av = new AvatarVideo({ baseUrl: "", appId: "", apiKey: "" });
       export const detail: Promise<VideoJobDetail> = av.waitForVideo("id", { onStage: (stage: string) => stage });
       export const created = av.videos.create({ avatarId: "a", audioUrl: "u" }).then((c) => c.requestId.length);
       export const headers = av.avatars.get("a", { timeout: 1 }).withResponse().then((r) => r.response.headers);
       // @ts-expect-error a wrong field is caught
       av.avatars.create({ imageURL: "u" });`;
    const imports = `import { AvatarVideo, type VideoJobDetail } from "@avatar-video/client";\n`;
    writeFileSync(join(project, "consumer.mts"), imports + consumer);
    writeFileSync(join(project, "consumer.cts"), imports + consumer);
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
      JSON.stringify({ compilerOptions, files: ["consumer.mts", "consumer.cts", "example.mts"] }),
    );
    const checked = await run(NODES["22"], [join(root, "node_modules/typescript/bin/tsc"), "-p", "."]).catch((e) => e);
    expect(checked.stdout).toBe("");
  });

  it("has a bin that npx runs with nothing but the output on stdout, never printing the key", async () => {
    const bin = join(installed, JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).bin["avatar-video"]);
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    const env = { AVATAR_VIDEO_API_KEY: KEY, AVATAR_VIDEO_APP_ID: "app" };
    const runs = await Promise.all([
      run(NODES["22"], [bin, "--help"], env),
      run(NODES["22"], [bin, "render", "--help"], env),
      run("npx", ["--offline", "avatar-video", "--version"], env),
    ]);
    for (const { stdout, stderr } of runs) expect(stdout + stderr).not.toContain(KEY);
    expect(runs[1]?.stdout).toContain("--api-key <key>");
    expect(runs[2]?.stdout).toBe(`${version}\n`);
  });
});
