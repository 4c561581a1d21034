import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const SECRETS = [
  "ADMIN_TOKEN",
  "SIGNING_SECRET",
  "RENDERER_TOKEN",
  "SESSION_TOKEN_PRIVATE_KEY",
  "SESSION_TOKEN_PUBLIC_KEY",
];

interface FakeState {
  d1: { name: string; uuid: string }[];
  queues: string[];
  buckets: string[];
  secrets: Record<string, string[]>;
  calls: string[];
}

let dir = "";
let binDir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "setup-cf-"));
  copyFileSync(join(ROOT, "wrangler.toml"), join(dir, "wrangler.toml"));
  // `wrangler` on PATH is the fake; setup finds it exactly as it finds the real one in node_modules/.bin.
  binDir = mkdtempSync(join(tmpdir(), "fake-bin-"));
  copyFileSync(join(__dirname, "fake-wrangler.mjs"), join(binDir, "wrangler"));
  execFileSync("chmod", ["+x", join(binDir, "wrangler")]);
});

const state = (): FakeState => JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
const setup = (...args: string[]) =>
  execFileSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "scripts/setup-cloudflare.ts"), ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, PATH: `${binDir}:${process.env.PATH}`, FAKE_WRANGLER_STATE: join(dir, "state.json") },
  });

describe("npm run setup:cloudflare", () => {
  it("--dry-run prints the plan for every resource and secret and calls nothing", () => {
    const out = setup("--dry-run");
    for (const name of [
      "avatar-video",
      "avatar-video-jobs",
      "avatar-video-jobs-dlq",
      "avatar-video-media",
      ...SECRETS,
    ]) {
      expect(out).toContain(name);
    }
    expect(out).toContain("wrangler d1 migrations apply DB --remote");
    expect(out).toContain("wrangler secret bulk");
    expect(existsSync(join(dir, "state.json"))).toBe(false);
  });

  it("creates everything once, writes the database id, puts every secret in one bulk; a second run changes nothing", () => {
    const first = setup();
    const s1 = state();
    expect(s1.d1.map((d) => d.name)).toEqual(["avatar-video"]);
    expect(s1.queues).toEqual(["avatar-video-jobs", "avatar-video-jobs-dlq"]);
    expect(s1.buckets).toEqual(["avatar-video-media"]);
    expect(s1.secrets.production.sort()).toEqual([...SECRETS].sort());
    expect(s1.calls.filter((c) => c.startsWith("secret bulk"))).toHaveLength(1);
    expect(s1.calls.filter((c) => c.startsWith("d1 migrations apply DB --remote"))).toHaveLength(1);
    const toml = readFileSync(join(dir, "wrangler.toml"), "utf8");
    expect(toml).toContain(`database_id = "${s1.d1[0].uuid}"`);
    // Staging keeps its placeholder: setup touched only the environment it was asked for.
    expect(toml.split("[env.staging]")[1]).toContain('database_id = "00000000-0000-0000-0000-000000000000"');
    expect(first).toMatch(/D1 database avatar-video: created/);
    const saved = join(dir, ".local/cloudflare/production.secrets.json");
    expect(Object.keys(JSON.parse(readFileSync(saved, "utf8"))).sort()).toEqual([...SECRETS].sort());
    expect(statSync(saved).mode & 0o077).toBe(0);

    const second = setup();
    const s2 = state();
    expect(second).toMatch(/D1 database avatar-video: reused/);
    expect(second).toMatch(/queues avatar-video-jobs-dlq: reused/);
    expect(second).toMatch(/secrets: all 5 present, none changed/);
    expect(s2.d1).toEqual(s1.d1);
    expect(s2.queues).toEqual(s1.queues);
    expect(s2.calls.filter((c) => /create|bulk/.test(c))).toEqual(s1.calls.filter((c) => /create|bulk/.test(c)));
    expect(s2.calls.filter((c) => c.startsWith("d1 migrations apply"))).toHaveLength(2);
  });

  it("--env staging makes staging's own resources under its own Worker", () => {
    setup("--env", "staging");
    const s = state();
    expect(s.d1.map((d) => d.name)).toEqual(["avatar-video-staging"]);
    expect(s.queues).toEqual(["avatar-video-jobs-staging", "avatar-video-jobs-staging-dlq"]);
    expect(s.buckets).toEqual(["avatar-video-media-staging"]);
    expect(Object.keys(s.secrets)).toEqual(["staging"]);
    expect(s.calls.every((c) => c.includes("--env=staging"))).toBe(true);
  });

  it("wrangler.toml: observability on, every jobs queue has a dead-letter queue with a consumer, a staging env", () => {
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    expect(toml).toMatch(/\[observability\]\nenabled = true/);
    const dlqs = [...toml.matchAll(/dead_letter_queue = "([^"]+)"/g)].map((m) => m[1]);
    expect(dlqs).toEqual(["avatar-video-jobs-dlq", "avatar-video-jobs-staging-dlq"]);
    for (const dlq of dlqs) expect(toml).toContain(`queue = "${dlq}"\n`);
    expect(toml).toContain("[env.staging]");
  });
});

describe("npm run deploy", () => {
  const deploy = (env: Record<string, string>) => {
    try {
      execFileSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "scripts/deploy.ts")], {
        cwd: dir,
        encoding: "utf8",
        stdio: "pipe",
        env: {
          ...process.env,
          PATH: `${binDir}:${process.env.PATH}`,
          FAKE_WRANGLER_STATE: join(dir, "state.json"),
          ...env,
        },
      });
      return { code: 0, stderr: "" };
    } catch (err) {
      const e = err as { status: number; stderr: string };
      return { code: e.status, stderr: e.stderr };
    }
  };

  it("refuses before setup (placeholder database id) and without an https PUBLIC_BASE_URL", () => {
    expect(deploy({ PUBLIC_BASE_URL: "https://api.example.com" })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("setup:cloudflare"),
    });
    setup();
    expect(deploy({ PUBLIC_BASE_URL: "" })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("PUBLIC_BASE_URL"),
    });
    // With both, it applies migrations and deploys (the fake answers `deploy` with exit 2: unknown to it).
    deploy({ PUBLIC_BASE_URL: "https://api.example.com" });
    expect(state().calls.slice(-2)).toEqual([
      "d1 migrations apply DB --remote --env=",
      "deploy --var PUBLIC_BASE_URL:https://api.example.com --env=",
    ]);
  });
});

describe("wrangler deploy --dry-run --env staging", () => {
  it("builds and binds staging's own database, queues and bucket", () => {
    const out = execFileSync(
      join(ROOT, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--env", "staging", "--outdir", join(dir, "dist"), "--containers-rollout=none"],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } },
    );
    for (const binding of ["avatar-video-staging", "avatar-video-jobs-staging", "avatar-video-media-staging"]) {
      expect(out).toContain(`(${binding})`);
    }
    expect(out).not.toMatch(/env\.(RENDERER_URL|SOURCE_ALLOWLIST|ENVIRONMENT) /);
  }, 120_000);
});
