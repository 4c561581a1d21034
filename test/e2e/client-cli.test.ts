import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAvatarVideoClient, retryAfterMs, waitForVideo } from "../../client/src";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, ffprobeJson, synthSpeech } from "../renderer/helpers/media-audio";
import { baseUrl, createAccount, publish, type TestAccount } from "./helpers";

// The typed client (client/) and the `avatar-video` CLI, end to end against the e2e stack.

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "e2e-client-"));
const cli = (args: string[], account: TestAccount) =>
  run("tsx", ["client/src/cli.ts", ...args, "--poll-ms", "500"], {
    env: {
      ...process.env,
      AVATAR_VIDEO_BASE_URL: baseUrl,
      AVATAR_VIDEO_APP_ID: account.appId,
      AVATAR_VIDEO_API_KEY: account.headers["X-API-Key"],
    },
    timeout: 170_000,
  });

describe("generated client types", () => {
  it("match the Worker's OpenAPI document (run `npm run client:generate` after a contract change)", async () => {
    const check = await run("tsx", ["scripts/generate-client.ts", "--check"]).catch((e) => e);
    expect(check.stderr ?? "").toBe("");
    expect(check.code ?? 0).toBe(0);
  });
});

describe("waitForVideo", () => {
  const answers: Array<{ status: number; headers?: Record<string, string>; body?: unknown }> = [];
  const seen: number[] = [];
  const server = createServer((_req, res) => {
    seen.push(Date.now());
    const next = answers.shift() ?? { status: 500 };
    res.writeHead(next.status, { "Content-Type": "application/json", ...next.headers });
    res.end(JSON.stringify(next.body ?? { error: { code: "service_unavailable", message: "busy", requestId: "r" } }));
  });
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const job = (status: string, stage: string) => ({ job: { id: "j", status, avatarId: "a", name: "n", progress: { stage } } });

  it("reports each stage once, waits Retry-After on 429 and 503, and resolves with the final detail", async () => {
    answers.push(
      { status: 200, body: job("processing", "rendering") },
      { status: 429, headers: { "Retry-After": "1" } },
      { status: 200, body: job("processing", "rendering") },
      { status: 503, headers: { "Retry-After": "1" } },
      { status: 200, body: job("succeeded", "completed") },
    );
    const stages: string[] = [];
    const client = createAvatarVideoClient({ baseUrl: url, appId: "app", apiKey: "key" });
    const detail = await waitForVideo(client, "j", { intervalMs: 50, onStage: (s) => stages.push(s) });
    expect(detail.job.status).toBe("succeeded");
    expect(stages).toEqual(["rendering", "completed"]);
    expect(seen[2] - seen[1]).toBeGreaterThanOrEqual(950); // waited the 429's Retry-After, not the 50 ms interval
    expect(seen[4] - seen[3]).toBeGreaterThanOrEqual(950);
  });

  it("stops on an answer that polling cannot fix", async () => {
    answers.push({ status: 404 });
    const client = createAvatarVideoClient({ baseUrl: url, appId: "app", apiKey: "key" });
    await expect(waitForVideo(client, "j", { intervalMs: 50 })).rejects.toThrow(/404/);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("7")).toBe(7000);
    expect(retryAfterMs(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});

describe("avatar-video CLI", () => {
  it("creates an Avatar, renders a video with a stage-by-stage progress report, and downloads the MP4", async () => {
    const account = await createAccount(2);
    const made = await cli(["create-avatar", "--image", publish("cli-portrait.jpg", fixture("single-camera")), "--name", "cli"], account);
    const avatarId = /avatarId ([0-9a-f-]{36})/.exec(made.stdout)?.[1];
    expect(avatarId, made.stdout + made.stderr).toBeDefined();

    const wav = join(work, "speech.wav");
    await encodeAudio(synthSpeech([{ kind: "vowel", vowel: "AA", seconds: 0.6, level: -10 }, { kind: "silence", seconds: 0.4 }], 24_000), 24_000, wav, "wav");
    const out = join(work, "out.mp4");
    const rendered = await cli(["render", "--avatar", avatarId!, "--audio", publish("cli-speech.wav", readFileSync(wav)), "--out", out, "--width", "320", "--height", "240"], account);
    expect(rendered.stdout).toContain(`wrote ${out}`);
    expect(rendered.stderr).toMatch(/stage: completed/);
    const video = (await ffprobeJson(out)).streams.find((s: { codec_type: string }) => s.codec_type === "video");
    expect([video.codec_name, video.width, video.height]).toEqual(["h264", 320, 240]);
  });

  it("fails with the API's error code and message when the Avatar is not available", async () => {
    const account = await createAccount(1);
    const err = await cli(["render", "--avatar", crypto.randomUUID(), "--audio", "https://example.com/a.wav"], account).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/error: forbidden: Avatar access denied/);
  });
});
