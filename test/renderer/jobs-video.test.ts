/**
 * Video jobs through the renderer: media preparation (every failure code of the spec's media rules),
 * the access re-check before rendering (`{abort}` answers), heartbeats, stages, the MP4 upload.
 * Audio is probed by the real engine (ffprobe); rendering is a test double here (the real renderer has its own
 * tests and runs end to end in test/e2e).
 */
import { readdir } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { probeAudio } from "../../container/src/media/public";
import { loadConfig } from "../../container/src/io/public";
import { JobFailure } from "../../container/src/rules/public";
import { AUDIO_TYPES } from "@avatar-video/contract";
import {
  type Harness,
  RENDERER_TOKEN,
  type FakeEngines,
  makeWav,
  startHarness,
  fakeEngines,
  syntheticAvatar,
  until,
} from "./helpers/renderer-harness";
import type { SeenEvent } from "./helpers/renderer-worker";

let h: Harness;
let engines: FakeEngines;
const WAV = makeWav(0.5);

function realProbe(e: FakeEngines): FakeEngines {
  e.probeAudio = async (p, opts) => {
    e.calls.probeAudio++;
    return probeAudio(p, opts?.signal);
  };
  return e;
}

beforeAll(async () => {
  engines = realProbe(fakeEngines());
  h = await startHarness({
    engines,
    env: {
      HEARTBEAT_MS: "100",
      MEDIA_FIRST_BYTE_MS: "300",
      TRANSFER_DEADLINE_MS: "800",
      MAX_AUDIO_BYTES: "200000",
      MAX_BACKGROUND_BYTES: "100000",
      MAX_CONCURRENT_VIDEO_JOBS: "2",
    },
  });
});
afterAll(() => h.close());
afterEach(async () => {
  await until(() => h.renderer.manager.activeJobs === 0, 10_000, "renderer idle");
  h.worker.reset();
  Object.assign(engines, { renderMs: 20, renderStages: ["animating", "encoding"], renderError: undefined });
  engines.calls.renderVideo.length = 0;
});

/** Stages reported, heartbeat repeats collapsed. */
function stages(jobId: string): string[] {
  const all = h.worker.eventsOf(jobId).flatMap((e) => (e.body.type === "progress" ? [e.body.stage!] : []));
  return all.filter((s, i) => s !== all[i - 1]);
}

async function videoWith(over: Record<string, unknown>): Promise<SeenEvent> {
  return h.run(await h.videoDispatch(over));
}

async function failure(over: Record<string, unknown>) {
  const end = await videoWith(over);
  expect(end.body.type, JSON.stringify(end.body)).toBe("failed");
  expect(engines.calls.renderVideo).toHaveLength(0);
  return end.body.error!;
}

describe("video job: success", () => {
  it("prepares, reports rendering before the render, passes the renderer's stages through, uploads, succeeds", async () => {
    // The real renderer's stage names; its "rendering" (frame loop) is not reported a second time.
    engines.renderStages = ["analyzing_audio", "composing", "rendering", "encoding"];
    const d = await h.videoDispatch({ attempt: 2 });
    d.callbackUrl = h.worker.callbackUrl(d.jobId, 2);
    const end = await h.run(d);
    expect(end.body.type, JSON.stringify(end.body)).toBe("succeeded");
    expect(stages(d.jobId)).toEqual(["preparing_media", "rendering", "encoding", "uploading"]);
    expect(end.body.result).toMatchObject({
      durationSeconds: 2.4,
      frames: 60,
      fps: 25,
      bytes: 3000,
      width: 128,
      height: 128,
    });
    expect(end.body.result.audioDurationSeconds).toBeCloseTo(0.5, 1);
    for (const e of h.worker.eventsOf(d.jobId)) expect(e.body).toMatchObject({ jobId: d.jobId, attempt: 2 });
    expect(h.worker.eventsOf(d.jobId).every((e) => e.urlAttempt === 2)).toBe(true);

    const mp4 = h.worker.objects.get(`videos/${d.jobId}.mp4`)!;
    expect(mp4.contentType).toBe("video/mp4");
    expect(mp4.body.equals(Buffer.alloc(3000, 9))).toBe(true);

    const input = engines.calls.renderVideo[0];
    expect(input.settings).toEqual(d.settings);
    expect(input.rig.landmarks).toHaveLength(478);
    expect(input.portraitPng.equals(h.worker.objects.get(`avatars/${d.avatarId}/portrait.png`)!.body)).toBe(true);
    expect(input.background).toBeUndefined();
    // The scratch directory is gone once the job ended.
    await until(() => h.renderer.manager.activeJobs === 0, 5000, "job ended");
    expect(await readdir(h.workDir)).toEqual([]);
  });

  it("accepts every audio type of the spec's list, case-insensitively and with parameters", async () => {
    const types = [...AUDIO_TYPES].map((t, i) => (i % 2 ? t.toUpperCase() : `${t}; charset=binary`));
    for (const type of types) {
      const end = await videoWith({ audioUrl: h.sources.file(`ok-${types.indexOf(type)}.wav`, WAV, type) });
      expect(end.body.type, `${type}: ${JSON.stringify(end.body.error)}`).toBe("succeeded");
    }
  });

  it("sends a heartbeat at the configured cadence while the job runs", async () => {
    engines.renderMs = 900;
    engines.renderStages = ["encoding"];
    const d = await h.videoDispatch();
    await h.run(d);
    const beats = h.worker.eventsOf(d.jobId).filter((e) => e.body.type === "progress" && e.body.stage === "encoding");
    expect(beats.length).toBeGreaterThanOrEqual(6);
    const progress = h.worker.eventsOf(d.jobId).filter((e) => e.body.type === "progress");
    const gaps = progress.slice(1).map((e, i) => e.at - progress[i].at);
    expect(Math.max(...gaps)).toBeLessThan(300); // HEARTBEAT_MS=100
  });

  it("retries events answered with 5xx", async () => {
    let n = 0;
    h.worker.onEvent = () => (n++ < 2 ? { status: 503 } : undefined);
    const end = await videoWith({});
    expect(end.body.type).toBe("succeeded");
    expect(h.worker.events.slice(0, 3).map((e) => e.body.stage)).toEqual([
      "preparing_media",
      "preparing_media",
      "preparing_media",
    ]);
  });
});

describe("video job: audio source failures", () => {
  it("a Content-Type outside the list → unsupported_media_type (octet-stream, raw PCM, none, …)", async () => {
    const types = [
      "application/octet-stream",
      "audio/L16; rate=16000",
      "audio/pcm",
      "audio/flac",
      "video/mp4",
      "text/html",
      null,
    ];
    for (const [i, type] of types.entries()) {
      const err = await failure({ audioUrl: h.sources.file(`type-${i}.wav`, WAV, type) });
      expect(err, String(type)).toMatchObject({ code: "unsupported_media_type", retryable: false });
      expect(err.message).toContain("audio/mpeg");
    }
  });

  it("content that does not decode as audio → unsupported_media_type, whatever the Content-Type said", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    for (const body of [Buffer.from("this is not audio at all, just text ".repeat(50)), png]) {
      const err = await failure({ audioUrl: h.sources.file(`nd-${body.length}`, body, "audio/mpeg") });
      expect(err).toMatchObject({ code: "unsupported_media_type", retryable: false });
    }
  });

  it("an empty body → empty_media", async () => {
    expect(await failure({ audioUrl: h.sources.url("/empty?type=audio/wav") })).toMatchObject({
      code: "empty_media",
      retryable: false,
    });
  });

  it("over the size limit, declared or streamed → media_too_large", async () => {
    const declared = await failure({ audioUrl: h.sources.url("/declared?bytes=900000000&type=audio/wav") });
    expect(declared).toMatchObject({ code: "media_too_large", retryable: false });
    const streamed = await failure({ audioUrl: h.sources.url("/chunked?bytes=300000&type=audio/wav") });
    expect(streamed).toMatchObject({ code: "media_too_large", retryable: false });
    expect(streamed.message).toContain("200000 bytes");
  });

  it("HTTP 4xx/5xx → source_unavailable (5xx retryable)", async () => {
    expect(await failure({ audioUrl: h.sources.url("/status/404") })).toMatchObject({
      code: "source_unavailable",
      retryable: false,
    });
    expect(await failure({ audioUrl: h.sources.url("/status/503") })).toMatchObject({
      code: "source_unavailable",
      retryable: true,
    });
  });

  it("a refused destination (127.0.0.1 on a port outside the allowlist, a redirect to link-local) → source_unavailable", async () => {
    expect(await failure({ audioUrl: "http://127.0.0.1:1/a.mp3" })).toMatchObject({
      code: "source_unavailable",
      retryable: false,
    });
    const hop = h.sources.url(`/redirect?to=${encodeURIComponent("http://169.254.169.254/a.mp3")}`);
    expect(await failure({ audioUrl: hop })).toMatchObject({ code: "source_unavailable", retryable: false });
    expect(await failure({ audioUrl: "http://user:pw@example.com/a.mp3" })).toMatchObject({
      code: "source_unavailable",
      retryable: false,
    });
  });

  it("no response headers in time → source_unavailable; a transfer past its deadline → preparation_timeout", async () => {
    const silent = await failure({ audioUrl: h.sources.url("/slow-headers/v?ms=3000&type=audio/wav") });
    expect(silent).toMatchObject({ code: "source_unavailable", retryable: true });
    const t0 = Date.now();
    const slow = await failure({ audioUrl: h.sources.url("/trickle/v?interval=40&type=audio/wav") });
    expect(slow).toMatchObject({ code: "preparation_timeout", retryable: true });
    expect(slow.message).toContain("800 ms");
    expect(Date.now() - t0).toBeLessThan(2500);
  });
});

describe("video job: background image", () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#00ff00" } })
      .png()
      .toBuffer();
  });

  it("a valid background is downloaded and handed to the renderer; it wins over the Avatar's stored background", async () => {
    const d = await h.videoDispatch({ backgroundUrl: h.sources.file("bg.png", png, "image/png") });
    h.worker.objects.set("stored-bg.jpg", { body: Buffer.from("stored"), contentType: "image/jpeg" });
    d.avatar.background = h.worker.objectUrl("stored-bg.jpg");
    const end = await h.run(d);
    expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
    expect(engines.calls.renderVideo[0].background!.equals(png)).toBe(true);
    expect(h.worker.log.some((l) => l.includes("stored-bg"))).toBe(false);
  });

  it("without a request background the Avatar's stored background is used", async () => {
    const jpg = await sharp(png).jpeg().toBuffer();
    h.worker.objects.set("stored-bg2.jpg", { body: jpg, contentType: "image/jpeg" });
    const d = await h.videoDispatch();
    d.avatar.background = h.worker.objectUrl("stored-bg2.jpg");
    const end = await h.run(d);
    expect(end.body.type).toBe("succeeded");
    expect(engines.calls.renderVideo[0].background!.equals(jpg)).toBe(true);
  });

  it("background failures map like audio ones", async () => {
    const bg = (url: string) => failure({ backgroundUrl: url });
    expect(await bg(h.sources.file("bg.gif", Buffer.from("GIF89a...."), "image/gif"))).toMatchObject({
      code: "unsupported_media_type",
    });
    expect(await bg(h.sources.file("fake.png", Buffer.from("not a png at all"), "image/png"))).toMatchObject({
      code: "unsupported_media_type",
    });
    expect(await bg(h.sources.url("/empty?type=image/png"))).toMatchObject({ code: "empty_media" });
    expect(await bg(h.sources.url("/chunked?bytes=150000&type=image/png"))).toMatchObject({ code: "media_too_large" });
    expect(await bg(h.sources.url("/status/404"))).toMatchObject({ code: "source_unavailable" });
    const webp = await sharp(png).webp().toBuffer();
    const ok = await videoWith({ backgroundUrl: h.sources.file("bg.webp", webp, "image/webp") });
    expect(ok.body.type).toBe("succeeded");
  });
});

describe("video job: the Avatar's stored data", () => {
  it("a missing portrait, a broken rig or a mismatched portrait → invalid_manifest", async () => {
    const missing = await h.videoDispatch();
    missing.avatar.portrait = h.worker.objectUrl("nope.png");
    expect((await h.run(missing)).body.error).toMatchObject({ code: "invalid_manifest", retryable: false });

    const broken = await h.videoDispatch();
    h.worker.objects.set(`avatars/${broken.avatarId}/rig.json`, {
      body: Buffer.from('{"version":1,"landmarks":[]}'),
      contentType: "application/json",
    });
    expect((await h.run(broken)).body.error).toMatchObject({ code: "invalid_manifest" });

    const mismatch = await h.videoDispatch();
    const other = await syntheticAvatar(200);
    h.worker.objects.set(`avatars/${mismatch.avatarId}/portrait.png`, {
      body: other.portraitPng,
      contentType: "image/png",
    });
    expect((await h.run(mismatch)).body.error).toMatchObject({ code: "invalid_manifest" });
    expect(engines.calls.renderVideo).toHaveLength(0);
  });
});

describe("video job: rendering", () => {
  it("an exception while rendering → render_failed (retryable); a JobFailure from the renderer is kept", async () => {
    engines.renderError = new Error("ffmpeg exploded");
    expect((await videoWith({})).body.error).toEqual({
      code: "render_failed",
      message: "The video could not be rendered.",
      retryable: true,
    });
    engines.renderError = new JobFailure("renderer_rejected", "The audio is too long.");
    expect((await videoWith({})).body.error).toEqual({
      code: "renderer_rejected",
      message: "The audio is too long.",
      retryable: false,
    });
  });

  it("an {abort} answer to `rendering` (access revoked) stops the job before rendering; nothing more is sent", async () => {
    h.worker.onEvent = (e) =>
      e.body.stage === "rendering"
        ? { body: { abort: { code: "app_access_revoked", message: "revoked", retryable: false } } }
        : undefined;
    const d = await h.videoDispatch();
    expect((await h.post(d)).status).toBe(202);
    await h.worker.waitFor((e) => e.jobId === d.jobId && e.body.stage === "rendering");
    await until(() => h.renderer.manager.activeJobs === 0, 5000, "job ended");
    await new Promise((r) => setTimeout(r, 350)); // several heartbeat periods
    expect(stages(d.jobId)).toEqual(["preparing_media", "rendering"]);
    expect(h.worker.eventsOf(d.jobId).filter((e) => e.body.type !== "progress")).toEqual([]);
    expect(engines.calls.renderVideo).toHaveLength(0);
    expect(
      h.logs.some((l) => l.includes('"event":"job_stopped"') && l.includes(d.jobId) && l.includes("worker_abort")),
    ).toBe(true);
  });

  it("an {abort} answer to a heartbeat during the render aborts the render's signal", async () => {
    engines.renderMs = 3000;
    engines.renderStages = ["encoding"];
    let beats = 0;
    h.worker.onEvent = (e) =>
      e.body.stage === "encoding" && ++beats === 3
        ? { body: { abort: { code: "avatar_forbidden", message: "no", retryable: false } } }
        : undefined;
    const d = await h.videoDispatch();
    const t0 = Date.now();
    expect((await h.post(d)).status).toBe(202);
    await until(() => engines.renderState.aborted, 5000, "render aborted");
    await until(() => h.renderer.manager.activeJobs === 0, 5000, "job ended");
    expect(Date.now() - t0).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 300));
    const after = h.worker.eventsOf(d.jobId);
    expect(after.filter((e) => e.body.type !== "progress")).toEqual([]);
    expect(after.filter((e) => e.body.stage === "encoding")).toHaveLength(3);
    expect(h.worker.objects.has(`videos/${d.jobId}.mp4`)).toBe(false);
  });

  it("a fencing answer (409: stale attempt) to a progress event stops the job silently", async () => {
    h.worker.onEvent = (e) => (e.body.stage === "rendering" ? { status: 409 } : undefined);
    const d = await h.videoDispatch();
    expect((await h.post(d)).status).toBe(202);
    await h.worker.waitFor((e) => e.jobId === d.jobId && e.body.stage === "rendering");
    await until(() => h.renderer.manager.activeJobs === 0, 5000, "job ended");
    await new Promise((r) => setTimeout(r, 250));
    expect(h.worker.eventsOf(d.jobId).filter((e) => e.body.type !== "progress")).toEqual([]);
    expect(engines.calls.renderVideo).toHaveLength(0);
  });

  it("the MP4 upload is streamed from the work dir and retried on 5xx", async () => {
    let n = 0;
    h.worker.onObject = (m, key) => (m === "PUT" && key.startsWith("videos/") && n++ < 2 ? 502 : undefined);
    const end = await videoWith({});
    expect(end.body.type).toBe("succeeded");
    expect(n).toBe(3);
  });
});

describe("video job with the real renderer", () => {
  it("renders a lip-synced MP4 (H.264 + AAC) and uploads it", async () => {
    const { renderVideo } = await import("../../container/src/video/public");
    const original = engines.renderVideo;
    engines.renderVideo = (input) => renderVideo(input);
    try {
      const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#3050a0" } })
        .png()
        .toBuffer();
      const d = await h.videoDispatch({ backgroundUrl: h.sources.file("real-bg.png", png, "image/png") });
      d.settings = { ...d.settings, fit: "contain", leadInSeconds: 0.2 };
      const end = await h.run(d);
      expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
      const mp4 = h.worker.objects.get(`videos/${d.jobId}.mp4`)!;
      expect(mp4.body.subarray(4, 8).toString("latin1")).toBe("ftyp");
      expect(end.body.result.bytes).toBe(mp4.body.length);
      expect(end.body.result.fps).toBeGreaterThan(0);
      expect(end.body.result.frames).toBe(Math.round(end.body.result.durationSeconds * end.body.result.fps));
      expect(end.body.result.durationSeconds).toBeGreaterThan(0.5 + 0.2);
    } finally {
      engines.renderVideo = original;
    }
  });
});

describe("video job: the preparation window", () => {
  let w: Harness;
  beforeAll(async () => {
    w = await startHarness({
      engines: realProbe(fakeEngines()),
      env: { PREPARATION_WINDOW_MS: "600", TRANSFER_DEADLINE_MS: "20000", MEDIA_FIRST_BYTE_MS: "20000" },
    });
  });
  afterAll(() => w.close());

  it("media still downloading when the window closes → preparation_timeout; the transfer is torn down", async () => {
    const d = await w.videoDispatch({ audioUrl: w.sources.url("/trickle/window?interval=30&type=audio/wav") });
    const t0 = Date.now();
    const end = await w.run(d);
    expect(end.body.error).toMatchObject({ code: "preparation_timeout", retryable: true });
    expect(end.body.error!.message).toContain("preparation window");
    expect(Date.now() - t0).toBeLessThan(2000);
    await until(() => w.sources.closedByClient > 0, 2000, "transfer closed");
    await until(() => w.renderer.manager.activeJobs === 0, 5000, "job ended");
    expect(await readdir(w.workDir)).toEqual([]);
  });
});

describe("configuration", () => {
  it("defaults are the spec's values", () => {
    const c = loadConfig({ RENDERER_TOKEN });
    expect(c.port).toBe(8790);
    expect(c.media).toMatchObject({
      transferDeadlineMs: 5 * 60_000,
      preparationWindowMs: 30 * 60_000,
      maxAudioBytes: 500 * 1024 * 1024,
      maxBackgroundBytes: 50 * 1024 * 1024,
    });
    expect(c.avatar).toMatchObject({ firstByteMs: 3000, maxImageBytes: 5 * 1024 * 1024 });
    expect(c.heartbeatMs).toBeLessThanOrEqual(10_000);
    expect(c.concurrency).toEqual({ video: 1, avatar: 2, queued: 8 });
    expect(() => loadConfig({})).toThrow(/RENDERER_TOKEN/);
    expect(() => loadConfig({ RENDERER_TOKEN, HEARTBEAT_MS: "20000" })).toThrow(/HEARTBEAT_MS/);
    expect(() => loadConfig({ RENDERER_TOKEN, SOURCE_ALLOWLIST: "127.0.0.1" })).toThrow(
      /^invalid configuration: SOURCE_ALLOWLIST entry "127.0.0.1" must be host:port$/,
    );
    expect(() => loadConfig({ RENDERER_TOKEN, WARM_MODELS: "yes" })).toThrow(/WARM_MODELS must be "0" or "1"/);
    // Blank is unset: the default.
    expect(loadConfig({ RENDERER_TOKEN, PORT: " ", MAX_QUEUED_JOBS: "" })).toMatchObject({
      port: 8790,
      concurrency: { queued: 8 },
      warmModels: true,
    });
  });
});
