import { describe, expect, it } from "vitest";
import { avatar, AVATAR_ID, JOB_ID, sdk, videoJob } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();

const ok = { status: 200, body: { avatar: avatar() } };

describe("timeouts", () => {
  it("bound each attempt: a slow answer is dropped and the read retried", async () => {
    server.answer({ ...ok, delayMs: 1_000 }, ok);
    const started = Date.now();
    expect((await sdk(server.url, { timeout: 300 }).avatars.get(AVATAR_ID)).id).toBe(AVATAR_ID);
    expect(server.seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1_000); // 300 ms attempt + ≤ 0.5 s backoff, not the slow answer
  });

  it("end in a `timeout` error when every attempt is too slow", async () => {
    server.answer({ ...ok, delayMs: 1_000 }, { ...ok, delayMs: 1_000 });
    const error = await sdk(server.url, { timeout: 200, maxRetries: 1 })
      .avatars.get(AVATAR_ID)
      .catch((e) => e);
    expect(error).toMatchObject({ code: "timeout", status: undefined, retryable: true });
    expect(server.seen).toHaveLength(2);
  });
});

describe("signal", () => {
  it("cancels a request in flight with the caller's reason, and nothing is retried", async () => {
    server.answer({ ...ok, delayMs: 2_000 }, ok);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    await expect(sdk(server.url).avatars.get(AVATAR_ID, { signal: controller.signal })).rejects.toThrow("stop");
    expect(server.seen).toHaveLength(1);
  });

  it("cancels the wait between retries", async () => {
    server.answer({ status: 503, headers: { "Retry-After": "30" }, body: envelope("service_unavailable") });
    const started = Date.now();
    await expect(sdk(server.url).avatars.get(AVATAR_ID, { signal: AbortSignal.timeout(200) })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("cancels waitForVideo between polls", async () => {
    server.answer({ status: 200, body: videoJob("processing", "rendering") });
    const controller = new AbortController();
    const stages: string[] = [];
    const waiting = sdk(server.url).waitForVideo(JOB_ID, {
      intervalMs: 10_000,
      signal: controller.signal,
      onStage: (s) => (stages.push(s), controller.abort(new Error("user left"))),
    });
    await expect(waiting).rejects.toThrow("user left");
    expect(stages).toEqual(["rendering"]);
  });
});
