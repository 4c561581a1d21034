import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { AvatarVideo, AvatarVideoError } from "../../client/src/index.js";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, ffprobeJson, synthSpeech } from "../renderer/helpers/media-audio";
import { baseUrl, createAccount, publish, type TestAccount } from "./helpers";

// The SDK (client/) and the `avatar-video` CLI, end to end against the e2e stack. The tests share one
// account and build on each other: the CLI makes the Avatar, the SDK renders more videos of it.

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "e2e-client-"));
let account: TestAccount;
let av: AvatarVideo;
let avatarId = "";
let audioUrl = "";

const cli = (...args: string[]) =>
  run("node_modules/.bin/tsx", ["client/src/cli/main.ts", ...args], {
    env: {
      ...process.env,
      AVATAR_VIDEO_BASE_URL: baseUrl,
      AVATAR_VIDEO_APP_ID: account.appId,
      AVATAR_VIDEO_API_KEY: account.headers["X-API-Key"],
    },
    timeout: 170_000,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e) => e as { code: number; stdout: string; stderr: string },
  );

beforeAll(async () => {
  account = await createAccount(2);
  av = new AvatarVideo({ baseUrl, appId: account.appId, apiKey: account.headers["X-API-Key"]! });
  const wav = join(work, "speech.wav");
  await encodeAudio(
    synthSpeech(
      [
        { kind: "vowel", vowel: "AA", seconds: 0.6, level: -10 },
        { kind: "silence", seconds: 0.4 },
      ],
      24_000,
    ),
    24_000,
    wav,
    "wav",
  );
  audioUrl = publish("client-speech.wav", readFileSync(wav));
});

const small = { width: 320, height: 240 };

describe("avatar-video CLI", () => {
  it("creates an Avatar (--json), renders it with a stage report and downloads the MP4", async () => {
    const made = await cli(
      "create-avatar",
      "--image",
      publish("cli-portrait.jpg", fixture("single-camera")),
      "--name",
      "Ada Lovelace",
      "--json",
      "--poll-ms",
      "500",
    );
    expect(made.code, made.stderr).toBe(0);
    const job = JSON.parse(made.stdout);
    expect(job).toMatchObject({ status: "succeeded", name: "Ada Lovelace" });
    avatarId = job.avatarId;

    const out = join(work, "out.mp4");
    const rendered = await cli(
      "render",
      "--avatar",
      avatarId,
      "--audio",
      audioUrl,
      "--out",
      out,
      "--width",
      "320",
      "--height",
      "240",
      "--poll-ms",
      "500",
    );
    expect(rendered.stdout).toContain(`wrote ${out}`);
    expect(rendered.stderr).toMatch(/stage: completed/);
    const video = (await ffprobeJson(out)).streams.find((s) => s.codec_type === "video");
    expect([video?.codec_name, video?.width, video?.height]).toEqual(["h264", 320, 240]);
  });

  it("lists and gets what it made, as JSON", async () => {
    const [avatars, videos, avatar, jobs] = await Promise.all([
      cli("avatars", "list", "--json"),
      cli("videos", "list", "--status", "succeeded", "--json"),
      cli("avatars", "get", avatarId, "--json"),
      cli("jobs", "list", "--json"),
    ]);
    expect(JSON.parse(avatars.stdout).map((a: { id: string }) => a.id)).toEqual([avatarId]);
    expect(JSON.parse(videos.stdout)).toMatchObject([{ avatarId, status: "succeeded" }]);
    expect(JSON.parse(avatar.stdout)).toMatchObject({ id: avatarId, name: "Ada Lovelace" });
    const [job] = JSON.parse(jobs.stdout);
    expect(JSON.parse((await cli("jobs", "get", job.id, "--json")).stdout)).toMatchObject({ id: job.id, avatarId });
  });

  it("exits 1 with the API's code and request id when the Avatar is not available", async () => {
    const err = await cli("render", "--avatar", crypto.randomUUID(), "--audio", audioUrl);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/^error: forbidden: Avatar access denied.* \(HTTP 403, request id [\w-]+\)$/m);
  });
});

describe("SDK", () => {
  it("renders through a lost answer: the retry of POST /videos sends the same requestId and makes no second job", async () => {
    // A proxy that forwards to the stack but answers the first POST /videos with a 503 (the job was made).
    const posts: Array<{ requestId: string; jobId: string }> = [];
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.startsWith("x-") || k === "content-type"),
      ) as Record<string, string>;
      const answer = await fetch(`${baseUrl}${req.url}`, { method: req.method, headers, body });
      const text = await answer.text();
      if (req.method === "POST" && req.url === "/v1/open/videos") {
        posts.push({ requestId: JSON.parse(body!.toString()).requestId, jobId: JSON.parse(text).jobId });
        if (posts.length === 1)
          return res
            .writeHead(503, { "Content-Type": "application/json" })
            .end('{"error":{"code":"service_unavailable","message":"lost","requestId":"proxy"}}');
      }
      res.writeHead(answer.status, { "Content-Type": "application/json" }).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const viaProxy = new AvatarVideo({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        appId: account.appId,
        apiKey: account.headers["X-API-Key"]!,
      });
      const created = await viaProxy.videos.create({ avatarId, audioUrl, video: small });
      expect(posts).toHaveLength(2);
      expect(posts[1]).toEqual(posts[0]);
      expect(created).toMatchObject({ jobId: posts[0]!.jobId, requestId: posts[0]!.requestId });
      const stages: string[] = [];
      const detail = await av.waitForVideo(created.jobId, {
        intervalMs: 500,
        onStage: (s) => stages.push(s),
        timeoutMs: 150_000,
      });
      expect(detail.job.status).toBe("succeeded");
      expect(detail.videoUrl).toMatch(/^https?:\/\//);
      expect(stages.at(-1)).toBe("completed");
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  it("pages through video jobs with the same pageSize, and filters by status", async () => {
    const all: string[] = [];
    for await (const job of av.videos.list({ pageSize: 1 })) all.push(job.id);
    expect(all).toHaveLength(2); // the CLI's render and the SDK's one: the retried POST made no third
    const failed: string[] = [];
    for await (const job of av.videos.list({ statuses: ["failed"], pageSize: 1 })) failed.push(job.id);
    expect(failed).toEqual([]);
    const avatars: string[] = [];
    for await (const avatar of av.avatars.list({ pageSize: 1 })) avatars.push(avatar.id);
    expect(avatars).toEqual([avatarId]);
  });

  it("throws AvatarVideoError with the code and the request id of the answer", async () => {
    const missing = crypto.randomUUID();
    const error = await av.videos.get(missing).catch((e) => e);
    expect(error).toBeInstanceOf(AvatarVideoError);
    expect(error).toMatchObject({ status: 404, code: "not_found", retryable: false });
    // The typed low-level client reaches the same path; its answer's X-Request-ID is the envelope's requestId.
    const raw = await av.api.GET("/v1/open/video-jobs/{jobId}", { params: { path: { jobId: missing } } });
    expect(raw.error?.error.requestId).toBe(raw.response.headers.get("X-Request-ID"));
    expect(error.requestId).toMatch(/^[\w-]{8,}$/);
  });

  it("waits for an Avatar job and reports its failure in the job, not as a thrown error", async () => {
    const { jobId } = await av.avatars.create({ imageUrl: publish("client-no-face.jpg", fixture("no-face-stairs")) });
    const job = await av.waitForAvatar(jobId, { intervalMs: 500, timeoutMs: 120_000 });
    expect(job).toMatchObject({
      id: jobId,
      status: "failed",
      error: { code: "image_quality_rejected", reason: "no_face" },
    });
    expect(
      (await av.avatars.check({ imageUrl: publish("client-no-face.jpg", fixture("no-face-stairs")) })).reason,
    ).toBe("no_face");
  });
});
