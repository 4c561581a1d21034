import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The renderer image (container/Dockerfile, docs/renderer.md "Running it"): built from the lock file, run as
// compiled JavaScript by an unprivileged user from a base pinned by digest. Docker is not needed here: the
// build step itself runs, and the Dockerfile is read for what the image does.

const dockerfile = readFileSync("container/Dockerfile", "utf8");
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((l) => l.trim() && !l.trim().startsWith("#"));

describe("renderer image", () => {
  it("starts from a base pinned by digest, installs with npm ci, runs compiled JavaScript as a non-root user", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim@sha256:[0-9a-f]{64}$/m);
    for (const from of instructions.filter((l) => l.startsWith("FROM "))) expect(from).toContain("${NODE_IMAGE}");
    const installs = instructions.filter((l) => /\bnpm (ci|install|i)\b/.test(l));
    expect(installs.length).toBe(2);
    for (const line of installs) expect(line).toMatch(/\bnpm ci\b/);
    expect(instructions.at(-1)).toBe('CMD ["node", "--enable-source-maps", "container/dist/server.js"]');
    expect(dockerfile).not.toMatch(/--import tsx|node_modules\/\.bin\/tsx container/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("FROM "));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime.indexOf("USER node")).toBeLessThan(runtime.indexOf("CMD "));
  });

  it("the build step compiles the renderer to JavaScript that runs under plain node", () => {
    execFileSync("node_modules/.bin/tsx", ["scripts/build-renderer.ts"], { stdio: "pipe" });
    const server = readFileSync("container/dist/server.js", "utf8");
    expect(server).not.toMatch(/from "@avatar-video\//); // workspace sources are inlined
    expect(server).not.toMatch(/from "tsx/);
    // Plain node runs it: a missing RENDERER_TOKEN stops it at start with the configuration error.
    const run = spawnSync("node", ["container/dist/server.js"], {
      env: { ...process.env, RENDERER_TOKEN: "" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout + run.stderr).toContain("RENDERER_TOKEN");
  }, 60_000);
});
