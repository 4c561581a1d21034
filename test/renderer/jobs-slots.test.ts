/**
 * No slot leaks (issue 8, point 4): the job manager is driven through every end of a job — success, each
 * failure code, a Worker {abort}, fencing by a newer attempt at each stage, fencing answers (409) from the
 * Worker at each exchange, a Worker that is unreachable or never answers, upload errors and timeouts.
 * After each end the running counts and the waiting list are back to zero, the job that waited behind
 * it has run, and the next job starts at once (202 state "running").
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { JobFailure } from "../../container/src/rules/public";
import {
  type FakeEngines,
  type Harness,
  type TestDispatch,
  type TestVideoDispatch,
  fakeEngines,
  makeWav,
  startHarness,
  until,
} from "./helpers/renderer-harness";

let h: Harness;
let engines: FakeEngines;
/** Accepts requests and never answers (`/silent`), or drops the connection (`/reset`); counts what it saw. */
let peer: { origin: string; seen: string[]; closed: number; close(): Promise<void> };
const m = () => h.renderer.manager;
/** The video dispatches the cases below change (job A). */
type D = TestVideoDispatch;

async function startPeer(): Promise<typeof peer> {
  const sockets = new Set<net.Socket>();
  const p = { origin: "", seen: [] as string[], closed: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    p.seen.push(`${req.method} ${new URL(req.url ?? "/", "http://x").pathname}`);
    req.on("close", () => p.closed++);
    if (req.url?.startsWith("/reset")) req.socket.destroy();
    req.resume(); // /silent: read everything, answer nothing
    void res;
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  p.origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  p.close = () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r())));
  return p;
}

beforeAll(async () => {
  engines = fakeEngines();
  originals = { renderVideo: engines.renderVideo, createAvatarAssets: engines.createAvatarAssets };
  peer = await startPeer();
  h = await startHarness({
    engines,
    env: {
      MAX_CONCURRENT_VIDEO_JOBS: "1",
      MAX_CONCURRENT_AVATAR_JOBS: "1",
      MAX_QUEUED_JOBS: "3",
      HEARTBEAT_MS: "100",
      CALLBACK_RETRIES: "1",
      CALLBACK_BACKOFF_MS: "10",
      CALLBACK_BACKOFF_MAX_MS: "20",
      CALLBACK_TIMEOUT_MS: "300",
      OBJECT_IDLE_TIMEOUT_MS: "1500",
      MEDIA_FIRST_BYTE_MS: "300",
      TRANSFER_DEADLINE_MS: "800",
      MAX_AUDIO_BYTES: "200000",
    },
  });
});
afterAll(async () => {
  await h.close();
  await peer.close();
});
let originals: Pick<FakeEngines, "renderVideo" | "createAvatarAssets">;
afterEach(() => {
  h.worker.reset();
  Object.assign(engines, originals, { renderMs: 20, renderStages: ["animating", "encoding"] });
});

/** Only job `a`'s engine call throws `err` (the job waiting behind it must not). */
function failEngineOf(a: TestDispatch, err: unknown): void {
  const { renderVideo, createAvatarAssets } = originals;
  let first = true; // an Avatar run has no work dir in its engine call: the first call is A's
  engines.renderVideo = async (input) => (input.workDir.includes(a.jobId) ? Promise.reject(err) : renderVideo(input));
  engines.createAvatarAssets = async (bytes, o) =>
    first ? ((first = false), Promise.reject(err)) : createAvatarAssets(bytes, o);
}

const slowAudio = (tag: string) => h.sources.url(`/trickle/${tag}?interval=50&chunks=40&type=audio/wav`);
const terminalsOf = (d: TestDispatch) =>
  h.worker.eventsOf(d.jobId, d.attempt).filter((e) => e.body.type !== "progress");
const stageSeen = (d: TestDispatch, stage: string) =>
  h.worker.waitFor((e) => e.jobId === d.jobId && e.urlAttempt === d.attempt && e.body.stage === stage);

async function avatarDispatch(over: Record<string, unknown> = {}): Promise<TestDispatch> {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } })
    .jpeg()
    .toBuffer();
  return h.avatarDispatch({ imageUrl: h.sources.file(`${randomUUID()}.jpg`, jpeg, "image/jpeg"), ...over });
}
const dispatchOf = (kind: "video" | "avatar", over: Record<string, unknown> = {}) =>
  kind === "video" ? h.videoDispatch(over) : avatarDispatch(over);

/** Counts back to zero, and a new job of this kind is accepted straight into a slot and succeeds. */
async function idleThenNextStartsAtOnce(kind: "video" | "avatar"): Promise<void> {
  await until(() => m().activeJobs === 0 && m().waitingJobs === 0, 5000, "running count and waiting list back to zero");
  const next = await dispatchOf(kind);
  const res = await h.post(next);
  expect(res.body.state).toBe("running");
  expect((await h.worker.terminal(next.jobId)).body.type).toBe("succeeded");
  await until(() => m().activeJobs === 0 && m().waitingJobs === 0 && m().liveJobs === 0, 5000, "renderer idle");
}

type Outcome = { type: "succeeded" } | { type: "failed"; code: string } | { type: "silent" };

/**
 * Job A runs, job B waits behind it; `end(a)` makes A end; A ends as `outcome`, B then runs to success,
 * and the renderer is idle with a free slot.
 */
async function throughEnd(
  kind: "video" | "avatar",
  a: TestDispatch,
  outcome: Outcome,
  end: (a: TestDispatch) => Promise<void> = async () => {},
): Promise<void> {
  const b = await dispatchOf(kind);
  expect((await h.post(a)).body.state).toBe("running");
  expect((await h.post(b)).body.state).toBe("waiting");
  await end(a);
  const bEnd = await h.worker.terminal(b.jobId, 1, 10_000);
  expect(bEnd.body.type, JSON.stringify(bEnd.body)).toBe("succeeded");
  if (outcome.type === "silent") {
    await until(() => m().liveJobs === 0, 5000, "stopped job unwound");
    expect(terminalsOf(a)).toEqual([]);
  } else {
    const aEnd = await h.worker.terminal(a.jobId, a.attempt, 10_000);
    expect(aEnd.body.type).toBe(outcome.type);
    if (outcome.type === "failed") expect(aEnd.body.error?.code).toBe(outcome.code);
  }
  await idleThenNextStartsAtOnce(kind);
}

describe("every end of a video job gives its slot back", () => {
  it("success", async () => {
    await throughEnd("video", await h.videoDispatch(), { type: "succeeded" });
  });

  const failures: Array<[string, (d: D) => void | Promise<void>]> = [
    ["source_unavailable", (d) => void (d.audioUrl = h.sources.url("/status/404"))],
    [
      "unsupported_media_type",
      (d) => void (d.audioUrl = h.sources.file(`${d.jobId}.txt`, Buffer.from("hello"), "text/plain")),
    ],
    ["empty_media", (d) => void (d.audioUrl = h.sources.file(`${d.jobId}.wav`, Buffer.alloc(0), "audio/wav"))],
    ["media_too_large", (d) => void (d.audioUrl = h.sources.file(`${d.jobId}.wav`, makeWav(10), "audio/wav"))],
    ["preparation_timeout", (d) => void (d.audioUrl = slowAudio(d.jobId))],
    ["invalid_manifest", (d) => void (d.avatar.rig = h.worker.objectUrl(`avatars/${randomUUID()}/rig.json`))],
    ["render_failed", (d) => failEngineOf(d, new Error("encoder crashed"))],
    ["renderer_rejected", (d) => failEngineOf(d, new JobFailure("renderer_rejected", "The audio is too long."))],
    // An upload that keeps failing is our fault: a video's unexpected-failure code (the shared table's).
    [
      "render_failed (upload keeps failing)",
      (d) => void (h.worker.onObject = (method, key) => (method === "PUT" && key.includes(d.jobId) ? 500 : undefined)),
    ],
  ];
  for (const [label, arrange] of failures) {
    it(`failure: ${label}`, async () => {
      const a = await h.videoDispatch();
      await arrange(a);
      await throughEnd("video", a, { type: "failed", code: label.split(" ")[0] });
    });
  }

  it("an {abort} answer from the Worker (access revoked)", async () => {
    const a = await h.videoDispatch();
    h.worker.onEvent = (e) =>
      e.jobId === a.jobId && e.body.stage === "rendering"
        ? { body: { abort: { code: "app_access_revoked", message: "x", retryable: false } } }
        : undefined;
    await throughEnd("video", a, { type: "silent" });
  });

  it("an upload that gets no answer (idle timeout) and one whose connection drops → render_failed", async () => {
    for (const path of ["/silent", "/reset"]) {
      const a = await h.videoDispatch();
      a.outputs.video = `${peer.origin}${path}/${a.jobId}.mp4`;
      await throughEnd("video", a, { type: "failed", code: "render_failed" });
    }
  });
});

describe("fencing by a newer attempt, at each stage", () => {
  const stages: Array<[string, (a: D) => Promise<void>]> = [
    ["preparing_media", async (a) => void (a.audioUrl = slowAudio(a.jobId))],
    ["rendering", async () => void Object.assign(engines, { renderMs: 1500, renderStages: ["animating", "encoding"] })],
    ["encoding", async () => void Object.assign(engines, { renderMs: 1500, renderStages: ["encoding"] })],
    ["uploading", async (a) => void (a.outputs.video = `${peer.origin}/silent/${a.jobId}.mp4`)],
  ];
  for (const [stage, arrange] of stages) {
    it(`attempt 2 arrives while attempt 1 is ${stage}`, async () => {
      const a = await h.videoDispatch();
      await arrange(a);
      await throughEnd("video", a, { type: "silent" }, async () => {
        await stageSeen(a, stage);
        if (stage === "uploading")
          await until(() => peer.seen.includes(`PUT /silent/${a.jobId}.mp4`), 5000, "upload started");
        engines.renderMs = 20;
        const newer = await h.videoDispatch({ jobId: a.jobId, attempt: 2 });
        expect((await h.post(newer)).status).toBe(202);
        expect((await h.worker.terminal(a.jobId, 2, 10_000)).body.type).toBe("succeeded");
      });
    });
  }

  it("attempt 2 arrives while attempt 1 is waiting for a slot", async () => {
    engines.renderMs = 600;
    const c = await h.videoDispatch();
    const a = await h.videoDispatch();
    expect((await h.post(c)).body.state).toBe("running");
    expect((await h.post(a)).body.state).toBe("waiting");
    const newer = await h.videoDispatch({ jobId: a.jobId, attempt: 2 });
    expect((await h.post(newer)).body.state).toBe("waiting");
    expect(m().waitingJobs).toBe(1); // attempt 1 left the list at once
    expect((await h.worker.terminal(a.jobId, 2, 10_000)).body.type).toBe("succeeded");
    expect(terminalsOf(a)).toEqual([]);
    await idleThenNextStartsAtOnce("video");
  });
});

describe("fencing answers from the Worker (stale attempt)", () => {
  const cases: Array<[string, (a: D) => void]> = [
    [
      "a progress event",
      (a) =>
        void (h.worker.onEvent = (e) =>
          e.jobId === a.jobId && e.body.stage === "preparing_media" ? { status: 409 } : undefined),
    ],
    [
      "the portrait/rig downloads",
      (a) =>
        void (h.worker.onObject = (method, key) =>
          method === "GET" && key.startsWith(`avatars/${a.avatarId}/`) ? 409 : undefined),
    ],
    [
      "the video upload",
      (a) => void (h.worker.onObject = (method, key) => (method === "PUT" && key.includes(a.jobId) ? 409 : undefined)),
    ],
  ];
  for (const [what, arrange] of cases) {
    it(`409 to ${what}`, async () => {
      const a = await h.videoDispatch();
      arrange(a);
      await throughEnd("video", a, { type: "silent" });
    });
  }
  it("409 to the terminal event", async () => {
    const a = await h.videoDispatch();
    h.worker.onEvent = (e) => (e.jobId === a.jobId && e.body.type === "succeeded" ? { status: 409 } : undefined);
    await throughEnd("video", a, { type: "succeeded" });
  });
  it("409 to the heartbeat of a waiting job: it leaves the waiting list at once", async () => {
    engines.renderMs = 800;
    const c = await h.videoDispatch();
    const a = await h.videoDispatch();
    h.worker.onEvent = (e) => (e.jobId === a.jobId && e.body.stage === "waiting" ? { status: 409 } : undefined);
    expect((await h.post(c)).body.state).toBe("running");
    expect((await h.post(a)).body.state).toBe("waiting");
    await until(() => m().waitingJobs === 0, 2000, "fenced waiting job removed");
    expect(m().activeJobs).toBe(1);
    await h.worker.terminal(c.jobId);
    expect(terminalsOf(a)).toEqual([]);
    await idleThenNextStartsAtOnce("video");
  });
});

describe("the Worker's link fails", () => {
  it("unreachable (connection refused): the slot is free as soon as the work is done", async () => {
    const a = await h.videoDispatch();
    a.callbackUrl = `http://127.0.0.1:1/internal/jobs/${a.jobId}/events?attempt=1`;
    const b = await h.videoDispatch();
    expect((await h.post(a)).body.state).toBe("running");
    expect((await h.post(b)).body.state).toBe("waiting");
    expect((await h.worker.terminal(b.jobId, 1, 10_000)).body.type).toBe("succeeded");
    expect(h.worker.objects.has(`videos/${a.jobId}.mp4`)).toBe(true);
    await until(() => m().liveJobs === 0, 10_000, "terminal delivery given up");
    await idleThenNextStartsAtOnce("video");
  });

  it("never answers (each request times out), or answers 500 to everything: the next job starts while the terminal event is still retried", async () => {
    for (const callback of [
      (id: string) => `${peer.origin}/silent/${id}`,
      (id: string) => h.worker.callbackUrl(id, 1),
    ]) {
      const a = await h.videoDispatch();
      a.callbackUrl = callback(a.jobId);
      const b = await h.videoDispatch();
      let liveWhenBStarted = 0;
      h.worker.onEvent = (e) => {
        if (e.jobId === a.jobId) return { status: 500 };
        if (e.jobId === b.jobId && e.body.stage === "preparing_media") liveWhenBStarted = m().liveJobs;
        return undefined;
      };
      expect((await h.post(a)).body.state).toBe("running");
      expect((await h.post(b)).body.state).toBe("waiting");
      expect((await h.worker.terminal(b.jobId, 1, 20_000)).body.type).toBe("succeeded");
      expect(h.worker.objects.has(`videos/${a.jobId}.mp4`)).toBe(true);
      expect(liveWhenBStarted).toBe(2); // A was still trying to deliver its terminal event
      await until(() => m().liveJobs === 0, 20_000, "terminal delivery given up");
      h.worker.onEvent = () => undefined;
      await idleThenNextStartsAtOnce("video");
    }
  });
});

describe("every end of an Avatar job gives its slot back", () => {
  it("success", async () => {
    await throughEnd("avatar", await avatarDispatch(), { type: "succeeded" });
  });
  it("failure: source_download_failed", async () => {
    await throughEnd("avatar", h.avatarDispatch({ imageUrl: h.sources.url("/status/404") }), {
      type: "failed",
      code: "source_download_failed",
    });
  });
  it("failure: an exception in the analysis → internal_error", async () => {
    const a = await avatarDispatch();
    failEngineOf(a, new Error("boom"));
    await throughEnd("avatar", a, { type: "failed", code: "internal_error" });
  });
  it("a fencing answer (410) to an artifact upload", async () => {
    const a = await avatarDispatch();
    h.worker.onObject = (method, key) => (method === "PUT" && key.includes(a.jobId) ? 410 : undefined);
    await throughEnd("avatar", a, { type: "silent" });
  });
  it("a newer attempt while downloading", async () => {
    const a = h.avatarDispatch({ imageUrl: slowAudio(randomUUID()) });
    await throughEnd("avatar", a, { type: "silent" }, async () => {
      await stageSeen(a, "downloading");
      const newer = await avatarDispatch({ jobId: a.jobId, attempt: 2 });
      expect((await h.post(newer)).status).toBe(202);
      expect((await h.worker.terminal(a.jobId, 2, 10_000)).body.type).toBe("succeeded");
    });
  });
});
