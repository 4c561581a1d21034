/**
 * The renderer's HTTP surface: auth, dispatch validation, 202 + dedupe of re-dispatches, attempt fencing,
 * concurrency and the waiting list, logs without signed query strings.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearerMatches } from "../../container/src/server";
import {
  RENDERER_TOKEN,
  type Harness,
  type FakeEngines,
  startHarness,
  fakeEngines,
  until,
} from "./helpers/renderer-harness";

let h: Harness;
let engines: FakeEngines;

beforeAll(async () => {
  engines = fakeEngines();
  h = await startHarness({
    engines,
    env: { MAX_CONCURRENT_VIDEO_JOBS: "1", MAX_QUEUED_JOBS: "1", HEARTBEAT_MS: "100" },
  });
});
afterAll(() => h.close());
afterEach(async () => {
  // Every test leaves the renderer idle for the next one.
  await until(
    () => h.renderer.manager.activeJobs === 0 && h.renderer.manager.waitingJobs === 0,
    10_000,
    "renderer idle",
  );
  h.worker.reset();
});

describe("GET /health", () => {
  it("answers 200 with the number of active jobs and the ffmpeg it runs", async () => {
    const res = await fetch(`${h.url}/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, activeJobs: 0, waitingJobs: 0 });
    expect(body.ffmpeg.source).toMatch(/^(env|system|npm)$/);
    expect(body.ffmpeg.version).toMatch(/^n?\d+\.\d+|^N-\d+/);
    expect(body.ffmpeg.path).toMatch(/ffmpeg$/);
  });
});

describe("POST /jobs authentication and validation", () => {
  it("401 without a bearer token, with a wrong one, or with another scheme", async () => {
    const body = h.avatarDispatch();
    expect((await h.post(body, null)).status).toBe(401);
    expect((await h.post(body, "wrong-token")).status).toBe(401);
    expect((await h.post(body, `${RENDERER_TOKEN}x`)).status).toBe(401);
    const basic = await fetch(`${h.url}/jobs`, {
      method: "POST",
      headers: { authorization: `Basic ${RENDERER_TOKEN}` },
      body: JSON.stringify(body),
    });
    expect(basic.status).toBe(401);
    expect(h.worker.events).toHaveLength(0);
  });

  it("compares the token in constant time and only as a Bearer credential", () => {
    expect(bearerMatches(`Bearer ${RENDERER_TOKEN}`, RENDERER_TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${RENDERER_TOKEN}`, RENDERER_TOKEN)).toBe(true);
    expect(bearerMatches(RENDERER_TOKEN, RENDERER_TOKEN)).toBe(false);
    expect(bearerMatches(undefined, RENDERER_TOKEN)).toBe(false);
    expect(bearerMatches("Bearer ", RENDERER_TOKEN)).toBe(false);
  });

  it("takes the token exactly as sent: only SP/HTAB around it are ignored", () => {
    expect(bearerMatches(`Bearer \t${RENDERER_TOKEN} \t`, RENDERER_TOKEN)).toBe(true);
    expect(bearerMatches(`  Bearer ${RENDERER_TOKEN}`, RENDERER_TOKEN)).toBe(true);
    for (const junk of ["\u00a0", "\v", "\f", "\u200b", "\u3000", "\u2028", "\n"]) {
      expect(bearerMatches(`Bearer ${RENDERER_TOKEN}${junk}`, RENDERER_TOKEN), JSON.stringify(junk)).toBe(false);
      expect(bearerMatches(`Bearer ${junk}${RENDERER_TOKEN}`, RENDERER_TOKEN), JSON.stringify(junk)).toBe(false);
    }
  });

  it("400 for malformed JSON and for dispatches breaking the contract", async () => {
    expect((await h.post("{not json")).status).toBe(400);
    const huge = await h.post(`{"pad":"${"x".repeat(300 * 1024)}"}`);
    expect(huge.status).toBe(413);
    expect(huge.body.error).toContain("body larger than");
    const bad: [string, Record<string, unknown>][] = [
      ["kind", { kind: "audio" }],
      ["jobId", { jobId: "not-a-uuid" }],
      ["attempt", { attempt: 0 }],
      ["attempt", { attempt: "1" }],
      ["callbackUrl", { callbackUrl: "ftp://x/y" }],
      ["token", { token: undefined }],
      ["outputs", { outputs: undefined }],
      ["outputs.cover", { outputs: { portrait: "http://a/p", rig: "http://a/r" } }],
      ["imageUrl", { imageUrl: 42 }],
    ];
    for (const [field, over] of bad) {
      const res = await h.post(h.avatarDispatch(over));
      expect(res.status, field).toBe(400);
      expect(res.body.error, field).toContain(field);
    }
    const video = await h.videoDispatch();
    for (const [field, settings] of [
      ["settings.width", { width: 63 }],
      ["settings.height", { height: 101 }],
      ["settings.width", { width: 1920, height: 1920 }],
      ["settings.fit", { fit: "fill" }],
      ["settings.backgroundColor", { backgroundColor: "red" }],
      ["settings.leadInSeconds", { leadInSeconds: 61 }],
    ] as const) {
      const res = await h.post({ ...video, settings });
      expect(res.status, field).toBe(400);
      expect(res.body.error, field).toContain(field);
    }
    expect((await h.post({ ...video, avatar: { portrait: video.avatar.portrait } })).status).toBe(400);
    expect(h.worker.events).toHaveLength(0);
  });

  it("404 for unknown paths, 405 for wrong methods", async () => {
    expect((await fetch(`${h.url}/nope`)).status).toBe(404);
    expect((await fetch(`${h.url}/jobs`)).status).toBe(405);
  });
});

describe("POST /jobs acceptance", () => {
  it("answers 202 at once and runs the job in the background; the same attempt again is not run twice", async () => {
    // The audio trickles: the job stays in preparing_media while we re-dispatch it.
    const d = await h.videoDispatch();
    d.audioUrl = h.sources.url(`/trickle/${d.jobId}?interval=30&chunks=20&type=audio/wav`);
    const t0 = Date.now();
    const first = await h.post(d);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ accepted: true, jobId: d.jobId, attempt: 1, duplicate: false });
    await h.worker.waitFor((e) => e.jobId === d.jobId && e.body.stage === "preparing_media");
    const again = await h.post(d);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ accepted: true, duplicate: true });
    await h.worker.terminal(d.jobId);
    expect(h.sources.seen.filter((p) => p === `/trickle/${d.jobId}`)).toHaveLength(1);
    expect(h.worker.eventsOf(d.jobId).filter((e) => e.body.stage === "preparing_media")[0]).toBeTruthy();
    expect(
      h.worker.eventsOf(d.jobId).filter((e) => e.body.type === "failed" || e.body.type === "succeeded"),
    ).toHaveLength(1);
  });

  it("a newer attempt aborts the running older one, which reports nothing more; an older attempt is refused", async () => {
    const jobId = randomUUID();
    const old = await h.videoDispatch({ jobId, attempt: 1 });
    old.audioUrl = h.sources.url(`/trickle/${jobId}?interval=50&type=audio/wav`);
    expect((await h.post(old)).status).toBe(202);
    await h.worker.waitFor((e) => e.jobId === jobId && e.urlAttempt === 1 && e.body.stage === "preparing_media");
    await until(() => h.sources.seen.includes(`/trickle/${jobId}`), 5000, "old transfer started");

    const closedBefore = h.sources.closedByClient;
    const newer = await h.videoDispatch({ jobId, attempt: 2 });
    expect((await h.post(newer)).status).toBe(202);
    const done = await h.worker.terminal(jobId, 2);
    expect(done.body.type).toBe("succeeded");
    expect(done.body.attempt).toBe(2);
    // The old run's transfer was torn down and it sent no terminal event.
    await until(() => h.sources.closedByClient > closedBefore, 5000, "old transfer closed");
    expect(h.worker.eventsOf(jobId, 1).filter((e) => e.body.type !== "progress")).toHaveLength(0);

    // A late redelivery of attempt 1 after attempt 2 ended is refused too.
    const stale = await h.post(await h.videoDispatch({ jobId, attempt: 1 }));
    expect(stale.status).toBe(409);

    const held = await h.videoDispatch({ jobId: randomUUID(), attempt: 3 });
    held.audioUrl = h.sources.url("/trickle?interval=30&chunks=15&type=audio/wav");
    expect((await h.post(held)).status).toBe(202);
    const older = await h.post({ ...held, attempt: 2, callbackUrl: h.worker.callbackUrl(held.jobId, 2) });
    expect(older.status).toBe(409);
    await h.worker.terminal(held.jobId, 3);
  });

  it("runs one video at a time, keeps the next one waiting with heartbeats, and answers 503 when the list is full", async () => {
    engines.renderMs = 600;
    try {
      const a = await h.videoDispatch();
      const b = await h.videoDispatch();
      const c = await h.videoDispatch();
      expect((await h.post(a)).body.state).toBe("running");
      const second = await h.post(b);
      expect(second.status).toBe(202);
      expect(second.body.state).toBe("waiting");
      const third = await h.post(c);
      expect(third.status).toBe(503);
      const health = await (await fetch(`${h.url}/health`)).json();
      expect(health).toMatchObject({ activeJobs: 1, waitingJobs: 1 });
      // The waiting job beats with stage "waiting" while the first one renders.
      await h.worker.waitFor((e) => e.jobId === b.jobId && e.body.stage === "waiting");
      expect((await h.worker.terminal(a.jobId)).body.type).toBe("succeeded");
      expect((await h.worker.terminal(b.jobId)).body.type).toBe("succeeded");
      const bStarted = h.worker.eventsOf(b.jobId).find((e) => e.body.stage === "preparing_media")!;
      const aDone = h.worker.eventsOf(a.jobId).find((e) => e.body.type === "succeeded")!;
      expect(bStarted.at).toBeGreaterThanOrEqual(aDone.at - 5);
    } finally {
      engines.renderMs = 20;
    }
  });
});

describe("logs", () => {
  it("are JSON lines without signed query strings or tokens", async () => {
    const d = await h.videoDispatch();
    d.audioUrl = h.sources.url("/status/404");
    await h.run(d);
    const text = h.logs.join("\n");
    for (const line of h.logs) expect(() => JSON.parse(line)).not.toThrow();
    expect(text).toContain(d.jobId);
    expect(text).toContain("/status/404");
    for (const secret of ["source-secret-signature", "callback-secret", "object-secret", RENDERER_TOKEN, d.token]) {
      expect(text).not.toContain(secret);
    }
  });
});
