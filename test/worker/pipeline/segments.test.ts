import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../../workers/app";
import type { JobMessage } from "../../../workers/pipeline/queue/messages";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import type { VideoPayload } from "../../../workers/pipeline/renderer/payload";
import type { Env } from "../../../workers/platform/env";
import { videoAudioTrackKey, videoKey, videoPartKey } from "../../../workers/platform/storage/keys";
import {
  consume,
  createAccount,
  createVideoJob,
  fakeRenderer,
  insertAvatar,
  jobRow,
  recordingQueue,
} from "../helpers/pipeline";

// Split renders on the Worker's side (docs/pipeline.md "Split renders"): a long render's planning run reports
// its segments; each segment is a run of its own (its row in video_segments, its own pool lease, attempt and
// heartbeat), dispatched to any instance; the join runs once every part is stored, and the job ends as a whole
// render's would. The renderer is the recording fake; every test has a pool of its own.

const FRAMES = 9025; // a 6-minute timeline at 25 fps
const local = (url: string) => url.replace("http://127.0.0.1:8787", "http://x");
const range = (k: number, n: number) => ({
  start: Math.round((FRAMES * k) / n),
  end: Math.round((FRAMES * (k + 1)) / n),
});

/** The Worker with a recording queue, the fake renderer, RENDERER_INSTANCES = `instances` and a fresh pool. */
function split(instances = 8) {
  const renderer = fakeRenderer();
  const queue = recordingQueue();
  const poolName = `segments-${crypto.randomUUID()}`;
  const pool = () => env.RENDERER_POOL.getByName(poolName);
  const testEnv: Env = {
    ...renderer.env,
    JOBS: queue.binding,
    RENDERER_INSTANCES: String(instances),
    RENDERER_POOL: { getByName: pool } as unknown as Env["RENDERER_POOL"],
  };
  const call = async (url: string, init: RequestInit = {}) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(local(url), init), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  const auth = (p: VideoPayload) => ({ authorization: `Bearer ${p.token}` });
  const event = async (p: VideoPayload, body: unknown) => {
    const res = await call(p.callbackUrl, {
      method: "POST",
      headers: { ...auth(p), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return res.json() as Promise<Record<string, unknown>>;
  };
  const put = (p: VideoPayload, url: string, bytes = new Uint8Array(2048).fill(7)) =>
    call(url, { method: "PUT", headers: { ...auth(p), "content-length": String(bytes.length) }, body: bytes });
  /** Messages sent for this job since the last call. */
  let seen = 0;
  const sent = (jobId: string): JobMessage[] => {
    const fresh = queue.sent.slice(seen);
    seen = queue.sent.length;
    return fresh.filter((m) => m.jobId === jobId);
  };
  const payloads = (from = 0) => renderer.dispatches.slice(from).map((d) => d.payload as VideoPayload);
  return { env: testEnv, renderer, pool, call, event, put, sent, payloads };
}

/** A video job dispatched once (its planning run), then split into `count` segments. */
async function splitJob(s: ReturnType<typeof split>, count: number) {
  const acct = await createAccount();
  const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
  await consume(s.env, [{ kind: "video", jobId }]);
  const [planning] = s.payloads();
  expect(await s.event(planning, { type: "progress", stage: "rendering" })).toEqual({ ok: true });
  expect(await s.event(planning, { type: "split", segments: count })).toEqual({ ok: true });
  return { acct, jobId, planning };
}

const segmentRows = (jobId: string) =>
  env.DB.prepare("SELECT idx, status, attempt FROM video_segments WHERE job_id = ? ORDER BY idx")
    .bind(jobId)
    .all()
    .then((r) => r.results);

/** A segment run's work: its part stored (segment 0: the audio track too), then its success. */
async function renderSegment(s: ReturnType<typeof split>, p: VideoPayload) {
  const k = p.segment!.index;
  expect((await s.put(p, p.outputs.video)).status).toBe(200);
  if (k === 0) expect((await s.put(p, p.outputs.audioTrack!)).status).toBe(200);
  const result = { segment: { index: k, ...range(k, p.segment!.count), frames: FRAMES } };
  return s.event(p, { type: "succeeded", result });
}

describe("a split render", () => {
  it("records one row per segment, each with its own lease on its own instance, joins, and completes", async () => {
    const s = split();
    const { jobId, planning } = await splitJob(s, 3);
    expect(planning.split).toEqual({ thresholdSeconds: 120, maxSegments: 8 });
    // The planning run gave its instance back; the job is processing, its runs are the rows.
    expect(await jobRow("video", jobId)).toMatchObject({ status: "processing", stage: "rendering", segments: 3 });
    expect(await segmentRows(jobId)).toEqual([
      { idx: 0, status: "queued", attempt: 0 },
      { idx: 1, status: "queued", attempt: 0 },
      { idx: 2, status: "queued", attempt: 0 },
      { idx: 3, status: "pending", attempt: 0 },
    ]);
    expect((await s.pool().load()).runs).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const messages = s.sent(jobId);
    expect(messages).toEqual([0, 1, 2].map((segment) => ({ kind: "video", jobId, segment })));

    await consume(s.env, messages);
    const segments = s.payloads(1);
    expect(segments.map((p) => p.segment)).toEqual([0, 1, 2].map((index) => ({ index, count: 3 })));
    expect(new Set(s.renderer.dispatches.slice(1).map((d) => d.instance)).size).toBe(3);
    expect((await s.pool().load()).renders.filter((r) => r > 0)).toHaveLength(3);
    for (const p of segments) {
      const k = p.segment!.index;
      expect(p.callbackUrl).toContain(`/internal/jobs/${jobId}/segments/${k}/events?attempt=1`);
      expect(p.outputs.video).toContain(videoPartKey(jobId, k));
      expect(p.outputs.audioTrack?.includes(videoAudioTrackKey(jobId)) ?? false).toBe(k === 0);
      expect(p.split).toBeUndefined();
      // A run writes its own part, never the job's MP4 nor another segment's part.
      expect((await s.put(p, p.outputs.video.replace(videoPartKey(jobId, k), videoKey(jobId)))).status).toBe(403);
      const other = videoPartKey(jobId, (k + 1) % 3);
      expect((await s.put(p, p.outputs.video.replace(videoPartKey(jobId, k), other))).status).toBe(403);
      expect(await s.event(p, { type: "progress", stage: "rendering" })).toEqual({ ok: true });
    }
    expect(new Set(segments.map((p) => p.token)).size).toBe(3);

    for (const p of segments) expect(await renderSegment(s, p)).toEqual({ ok: true });
    expect((await s.pool().load()).runs).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const join = s.sent(jobId);
    expect(join).toEqual([{ kind: "video", jobId, segment: 3 }]);

    await consume(s.env, join);
    const [joiner] = s.payloads(4);
    expect(joiner.join?.frames).toBe(FRAMES);
    expect(joiner.join?.parts.map((u) => new URL(u).pathname)).toEqual(
      [0, 1, 2].map((k) => `/internal/objects/${videoPartKey(jobId, k)}`),
    );
    for (const url of [...joiner.join!.parts, joiner.join!.audioTrack])
      expect((await s.call(url, { headers: { authorization: `Bearer ${joiner.token}` } })).status).toBe(200);
    expect(await s.event(joiner, { type: "progress", stage: "encoding" })).toEqual({ ok: true });
    expect(await jobRow("video", jobId)).toMatchObject({ status: "processing", stage: "encoding" });
    expect((await s.put(joiner, joiner.outputs.video)).status).toBe(200);
    expect(await s.event(joiner, { type: "succeeded", result: { durationSeconds: 361 } })).toEqual({ ok: true });

    expect(await jobRow("video", jobId)).toMatchObject({ status: "succeeded", stage: "completed" });
    expect(await segmentRows(jobId)).toEqual([]);
    expect((await s.pool().load()).runs).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const left = await env.MEDIA.list({ prefix: `videos/${jobId}` });
    expect(left.objects.map((o) => o.key)).toEqual([videoKey(jobId)]);
  });

  it("redoes a segment whose run went silent alone; its old attempt is told to stop", async () => {
    const s = split();
    const { jobId } = await splitJob(s, 3);
    await consume(s.env, s.sent(jobId));
    const [p0, p1, p2] = s.payloads(1);
    expect(await renderSegment(s, p0)).toEqual({ ok: true });
    await env.DB.prepare("UPDATE video_segments SET heartbeat_at = ? WHERE job_id = ? AND idx = 1")
      .bind(Date.now() - 60_000, jobId)
      .run();

    await runSweep(s.env, Date.now());
    const again = s.sent(jobId);
    expect(again).toEqual([{ kind: "video", jobId, segment: 1 }]);
    await consume(s.env, again);
    const [redo] = s.payloads(4);
    expect(redo.segment).toEqual({ index: 1, count: 3 });
    expect(redo.attempt).toBe(2);
    // The same lease: the re-dispatch goes to the instance the silent run held.
    expect(s.renderer.dispatches[4].instance).toBe(s.renderer.dispatches[2].instance);
    expect(await segmentRows(jobId)).toEqual([
      { idx: 0, status: "done", attempt: 1 },
      { idx: 1, status: "processing", attempt: 2 },
      { idx: 2, status: "processing", attempt: 1 },
      { idx: 3, status: "pending", attempt: 0 },
    ]);
    expect(await s.event(p1, { type: "progress", stage: "rendering" })).toMatchObject({
      ignored: true,
      abort: { code: "superseded" },
    });
    expect((await s.put(p1, p1.outputs.video)).status).toBe(409);
    expect(await renderSegment(s, redo)).toEqual({ ok: true });
    expect(await renderSegment(s, p2)).toEqual({ ok: true });
    expect(s.sent(jobId)).toEqual([{ kind: "video", jobId, segment: 3 }]);
  });

  it("a failed segment fails the job: every run ends, every lease and part goes", async () => {
    const s = split();
    const { jobId } = await splitJob(s, 3);
    await consume(s.env, s.sent(jobId));
    const [p0, p1] = s.payloads(1);
    expect(await renderSegment(s, p0)).toEqual({ ok: true });
    const error = { code: "render_failed", message: "boom", retryable: true };
    expect(await s.event(p1, { type: "failed", error })).toEqual({ ok: true });

    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "render_failed" });
    expect(await segmentRows(jobId)).toEqual([]);
    expect((await s.pool().load()).runs).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await env.MEDIA.list({ prefix: `videos/${jobId}` })).objects).toEqual([]);
    // The runs still rendering are told to stop; the queued join never runs.
    expect(await s.event(s.payloads(1)[2], { type: "progress", stage: "rendering" })).toMatchObject({
      abort: { code: "superseded" },
    });
    await consume(s.env, [{ kind: "video", jobId, segment: 3 }]);
    expect(s.renderer.dispatches).toHaveLength(4);
  });

  it("segment leases are fair: a second account's first render takes the first instance a segment frees", async () => {
    const s = split(3);
    const { jobId } = await splitJob(s, 3);
    await consume(s.env, s.sent(jobId));
    const other = await createAccount();
    const theirs = await createVideoJob(other, await insertAvatar(other.accountId));
    await consume(s.env, [{ kind: "video", jobId: theirs }]);
    expect(s.renderer.dispatches).toHaveLength(4); // all three instances render A's segments: B waits
    expect(await jobRow("video", theirs)).toMatchObject({ status: "queued", stage: "waiting_for_renderer" });

    expect(await renderSegment(s, s.payloads(1)[0])).toEqual({ ok: true });
    // The freed instance went to B (the pool sends its message), not to A's next run.
    expect(s.sent(theirs)).toEqual([{ kind: "video", jobId: theirs }]);
  });

  it("a split the run was not allowed (one instance: no rule) fails the job", async () => {
    const s = split(1);
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await consume(s.env, [{ kind: "video", jobId }]);
    const [run] = s.payloads();
    expect(run.split).toBeUndefined();
    expect(await s.event(run, { type: "split", segments: 2 })).toEqual({ ok: true });
    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "render_failed" });
    expect(await segmentRows(jobId)).toEqual([]);
  });

  it("segments that do not tile one timeline are not joined: the job fails", async () => {
    const s = split();
    const { jobId } = await splitJob(s, 2);
    await consume(s.env, s.sent(jobId));
    const [p0, p1] = s.payloads(1);
    expect(await renderSegment(s, p0)).toEqual({ ok: true });
    expect((await s.put(p1, p1.outputs.video)).status).toBe(200);
    const wrong = { segment: { index: 1, start: 4000, end: FRAMES, frames: FRAMES } }; // segment 0 ended at 4513
    expect(await s.event(p1, { type: "succeeded", result: wrong })).toEqual({ ok: true });
    await consume(s.env, s.sent(jobId));
    expect(s.renderer.dispatches).toHaveLength(3);
    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "render_failed" });
  });
});
