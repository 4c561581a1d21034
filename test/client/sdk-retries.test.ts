import { describe, expect, it } from "vitest";
import { AvatarVideoError } from "../../client/src/index.js";
import { avatar, AVATAR_ID, JOB_ID, sdk } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();

const now = { "Retry-After": "0" };
const busy = { status: 503, headers: now, body: envelope("service_unavailable") };
const created = { status: 200, body: { jobId: JOB_ID, status: "queued", createdAt: "2026-01-01T00:00:00.000Z" } };
const videoBody = { avatarId: AVATAR_ID, audioUrl: "http://media.local/a.wav" };

describe("retries", () => {
  it("repeats a read on 408, 429, 500, 502, 503, 504 and a dropped connection, up to maxRetries", async () => {
    // The dropped connection first: its backoff (no Retry-After) is then the shortest, 0.25 to 0.5 s.
    const answers = [408, 429, 500, 502, 503, 504].map((status) => ({ status, headers: now, body: envelope("x") }));
    server.answer({ drop: true }, ...answers, { status: 200, body: { avatar: avatar() } });
    const got = await sdk(server.url, { maxRetries: 7 }).avatars.get(AVATAR_ID);
    expect(got.id).toBe(AVATAR_ID);
    expect(server.seen).toHaveLength(8);
  });

  it("gives up after maxRetries (default 2) with the last answer's error", async () => {
    server.answer(busy, busy, busy, busy);
    const error = await sdk(server.url)
      .avatars.get(AVATAR_ID)
      .catch((e) => e);
    expect(error).toBeInstanceOf(AvatarVideoError);
    expect([error.status, error.code, error.retryable]).toEqual([503, "service_unavailable", true]);
    expect(server.seen).toHaveLength(3);
    server.reset();
    server.answer(busy, busy);
    await expect(sdk(server.url, { maxRetries: 0 }).avatars.get(AVATAR_ID)).rejects.toThrow(AvatarVideoError);
    expect(server.seen).toHaveLength(1);
  });

  it("does not repeat an answer no retry can change (400, 401, 404, 409)", async () => {
    for (const [status, code] of [
      [400, "invalid_request"],
      [401, "unauthorized"],
      [404, "not_found"],
    ] as const) {
      server.reset();
      server.answer({ status, body: envelope(code) }, created);
      await expect(sdk(server.url).avatars.get(AVATAR_ID)).rejects.toMatchObject({ status, retryable: false });
      expect(server.seen).toHaveLength(1);
    }
    // A conflict: the retry key already names other input; the same request gets the same answer.
    server.reset();
    server.answer({ status: 409, headers: now, body: envelope("conflict") }, created);
    await expect(sdk(server.url).videos.create(videoBody)).rejects.toMatchObject({ status: 409, retryable: false });
    expect(server.seen).toHaveLength(1);
  });

  it("sends POST /videos with the same generated requestId on every attempt", async () => {
    const failures = [500, 502, 504, 408].map((status) => ({ status, headers: now, body: envelope("x") }));
    server.answer({ drop: true }, ...failures, created); // the drop first: its backoff is then the shortest
    const job = await sdk(server.url, { maxRetries: 5 }).videos.create(videoBody);
    expect(server.seen).toHaveLength(6);
    const keys = server.seen.map((r) => r.body?.requestId);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(job).toMatchObject({ jobId: JOB_ID, status: "queued", requestId: keys[0] });
  });

  it("sends the caller's requestId, and a new one per call when none is given", async () => {
    server.answer(busy, created, created, created);
    const requestId = crypto.randomUUID();
    await sdk(server.url).videos.create(videoBody, { requestId });
    expect(server.seen.map((r) => r.body?.requestId)).toEqual([requestId, requestId]);
    await sdk(server.url).videos.create(videoBody);
    await sdk(server.url).videos.create(videoBody);
    expect(server.seen[2]?.body?.requestId).not.toBe(server.seen[3]?.body?.requestId);
  });

  it("retries POST /avatars (no retry key) on 429 only: not on 503 nor a dropped connection", async () => {
    server.answer(busy);
    await expect(sdk(server.url).avatars.create({ imageUrl: "http://media.local/p.jpg" })).rejects.toMatchObject({
      status: 503,
    });
    expect(server.seen).toHaveLength(1);
    server.reset();
    server.answer({ drop: true });
    await expect(sdk(server.url).avatars.create({ imageUrl: "http://media.local/p.jpg" })).rejects.toMatchObject({
      code: "connection_error",
    });
    expect(server.seen).toHaveLength(1);
    server.reset();
    server.answer(
      { status: 429, headers: now, body: envelope("rate_limit_exceeded") },
      { status: 200, body: { jobId: JOB_ID, status: "queued" } },
    );
    expect(await sdk(server.url).avatars.create({ imageUrl: "http://media.local/p.jpg" })).toEqual({
      jobId: JOB_ID,
      status: "queued",
    });
    expect(server.seen).toHaveLength(2);
  });

  it("waits Retry-After before the next attempt", async () => {
    server.answer(
      { status: 429, headers: { "Retry-After": "1" }, body: envelope("rate_limit_exceeded") },
      { status: 200, body: { avatar: avatar() } },
    );
    await sdk(server.url).avatars.get(AVATAR_ID);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("hands a Retry-After of more than a minute (an hourly quota) to the caller at once", async () => {
    server.answer({ status: 429, headers: { "Retry-After": "3600" }, body: envelope("rate_limit_exceeded") });
    await expect(sdk(server.url).avatars.get(AVATAR_ID)).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 3_600_000,
      retryable: true,
    });
    expect(server.seen).toHaveLength(1);
  });

  it("backs off exponentially with jitter when there is no Retry-After", async () => {
    const bare = { status: 503, body: envelope("service_unavailable") };
    server.answer(bare, bare, { status: 200, body: { avatar: avatar() } });
    await sdk(server.url).avatars.get(AVATAR_ID);
    const [first, second] = [server.seen[1]!.at - server.seen[0]!.at, server.seen[2]!.at - server.seen[1]!.at];
    expect(first).toBeGreaterThanOrEqual(240); // 500 ms × 0.5..1
    expect(first).toBeLessThan(700);
    expect(second).toBeGreaterThanOrEqual(490); // 1 s × 0.5..1
    expect(second).toBeLessThan(1300);
  });
});
