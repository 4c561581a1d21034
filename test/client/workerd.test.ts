import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Unstable_DevWorker, unstable_dev } from "wrangler";
import { API_KEY, avatar, AVATAR_ID } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

// The SDK as a browser bundle (esbuild, platform browser: a Node built-in would fail the build), run unchanged
// in workerd (wrangler's local runtime, no nodejs_compat, so no `process`) against the scripted server.
const server = useScriptedServer();
const dir = mkdtempSync(join(tmpdir(), "client-workerd-"));
const { version } = JSON.parse(readFileSync("client/package.json", "utf8"));
let worker: Unstable_DevWorker;
let bundle = "";

const WORKER = `import { AvatarVideo, AvatarVideoError } from "./sdk.js";
export default {
  async fetch(request, env) {
    const missing = (() => { try { new AvatarVideo({ baseUrl: env.BASE_URL }); } catch (e) { return e.message; } })();
    const av = new AvatarVideo({ baseUrl: env.BASE_URL, appId: "app-w", apiKey: env.KEY });
    const attempts = [];
    const hooked = new AvatarVideo({ baseUrl: env.BASE_URL, appId: "app-w", apiKey: env.KEY, maxRetries: 0,
      onResponse: (i) => attempts.push([i.attempt, i.status]) });
    const got = await av.avatars.get("${AVATAR_ID}").withResponse();
    const created = await av.videos.create({ avatarId: "${AVATAR_ID}", audioUrl: "http://media.local/a.wav" });
    const token = await av.sessionTokens.create({ ttlSeconds: 60 });
    const failed = await hooked.avatars.get("${AVATAR_ID}").catch((e) => e);
    return Response.json({
      missing, avatarId: got.data.id, requestId: got.requestId, retryKey: created.requestId,
      token: token.sessionToken, failed: [failed instanceof AvatarVideoError, failed.status, failed.code], attempts,
    });
  },
};`;

beforeAll(async () => {
  process.env.WRANGLER_SEND_METRICS = "false";
  const built = await build({
    entryPoints: ["client/src/index.ts"],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  bundle = built.outputFiles[0]!.text;
  writeFileSync(join(dir, "sdk.js"), bundle);
  writeFileSync(join(dir, "worker.js"), WORKER);
  worker = await unstable_dev(join(dir, "worker.js"), {
    compatibilityDate: "2025-11-01",
    vars: { BASE_URL: server.url, KEY: API_KEY },
    logLevel: "none",
    ip: "127.0.0.1",
    port: 0,
    persist: false,
    experimental: { disableExperimentalWarning: true, disableDevRegistry: true },
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the SDK in workerd, from a browser bundle", () => {
  it("bundles for the browser without Node built-ins", () => {
    expect(bundle).not.toMatch(/from\s*["']node:/);
    expect(bundle).toContain("avatar-video-node/");
  });

  it("calls the API with retries, hooks, withResponse and session tokens; no `process` needed", async () => {
    const busy = { status: 503, headers: { "Retry-After": "0" }, body: envelope("service_unavailable") };
    server.answer(
      busy,
      { headers: { "X-Request-ID": "req-w" }, body: { avatar: avatar() } },
      { body: { jobId: AVATAR_ID, status: "queued", createdAt: "2026-01-01T00:00:00.000Z" } },
      { body: { sessionToken: "eyJ.w.sig" } },
      { status: 404, body: envelope("not_found") },
    );
    const answer = await worker.fetch("http://worker.local/");
    const result = (await answer.json()) as Record<string, unknown>;
    expect(result).toMatchObject({
      avatarId: AVATAR_ID,
      requestId: "req-w",
      token: "eyJ.w.sig",
      failed: [true, 404, "not_found"],
      attempts: [[0, 404]],
    });
    expect(result.missing).toContain("AVATAR_VIDEO_APP_ID");
    expect(server.seen.map((r) => r.path)).toEqual([
      `/v1/open/avatars/${AVATAR_ID}`,
      `/v1/open/avatars/${AVATAR_ID}`,
      "/v1/open/videos",
      "/v1/console/session-tokens",
      `/v1/open/avatars/${AVATAR_ID}`,
    ]);
    expect(server.seen[2]?.body?.requestId).toBe(result.retryKey);
    expect(server.seen[0]?.headers["user-agent"]).toBe(`avatar-video-node/${version}`);
    expect(server.seen[0]?.headers["x-api-key"]).toBe(API_KEY);
  });
});
