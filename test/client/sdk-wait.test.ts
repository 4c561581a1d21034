import { describe, expect, it } from "vitest";
import { AVATAR_ID, avatarJob, JOB_ID, sdk, videoJob } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();

describe("waitForVideo and waitForAvatar", () => {
  it("report each stage once and resolve with the final video detail", async () => {
    const link = { videoUrl: "http://media.local/v.mp4", videoUrlExpiresAt: "2026-01-01T00:15:00.000Z" };
    server.answer(
      { body: videoJob("queued", "queued") },
      { body: videoJob("processing", "rendering") },
      { body: videoJob("processing", "rendering") },
      { body: videoJob("succeeded", "completed", link) },
    );
    const stages: string[] = [];
    const detail = await sdk(server.url).waitForVideo(JOB_ID, { intervalMs: 20, onStage: (s) => stages.push(s) });
    expect(stages).toEqual(["queued", "rendering", "completed"]);
    expect(detail).toMatchObject({ job: { id: JOB_ID, status: "succeeded" }, videoUrl: link.videoUrl });
    expect(server.seen.every((r) => r.path === `/v1/open/video-jobs/${JOB_ID}`)).toBe(true);
  });

  it("resolve with the Avatar job itself, failed ones too", async () => {
    server.answer({ body: avatarJob("processing") }, { body: avatarJob("succeeded", { avatarId: AVATAR_ID }) });
    expect(await sdk(server.url).waitForAvatar(JOB_ID, { intervalMs: 20 })).toMatchObject({
      id: JOB_ID,
      status: "succeeded",
      avatarId: AVATAR_ID,
    });
    server.answer({
      body: avatarJob("failed", { error: { code: "invalid_image", message: "too small", retryable: false } }),
    });
    expect(await sdk(server.url).waitForAvatar(JOB_ID, { intervalMs: 20 })).toMatchObject({
      status: "failed",
      error: { code: "invalid_image" },
    });
  });

  it("keep polling through an outage longer than a read's retries, waiting its Retry-After", async () => {
    const busy = { status: 503, headers: { "Retry-After": "1" }, body: envelope("service_unavailable") };
    server.answer(busy, { body: avatarJob("succeeded", { avatarId: AVATAR_ID }) });
    const job = await sdk(server.url, { maxRetries: 0 }).waitForAvatar(JOB_ID, { intervalMs: 20 });
    expect(job.status).toBe("succeeded");
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("stop on an answer polling cannot fix", async () => {
    server.answer({ status: 404, body: envelope("not_found", "req-404") });
    await expect(sdk(server.url).waitForVideo(JOB_ID, { intervalMs: 20 })).rejects.toMatchObject({
      status: 404,
      requestId: "req-404",
    });
  });

  // `timeoutMs` is the deprecated alias of `timeout`.
  for (const name of ["timeout", "timeoutMs"] as const) {
    it(`give up after ${name} with a \`timeout\` error`, async () => {
      server.answer(...Array.from({ length: 50 }, () => ({ body: videoJob("processing", "rendering") })));
      const started = Date.now();
      await expect(sdk(server.url).waitForVideo(JOB_ID, { intervalMs: 50, [name]: 300 })).rejects.toMatchObject({
        code: "timeout",
        message: "the job did not end within 300 ms",
      });
      expect(Date.now() - started).toBeLessThan(1_000);
    });
  }
});
