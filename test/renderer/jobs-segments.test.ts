/**
 * Split renders through the renderer's job runs (runs/video-job.ts, runs/join-job.ts): a run given the split
 * rule ends with a `split` event when its audio is long and renders whole when not; a segment run renders its
 * segment (segment 0 also the audio track) and reports its frames; two segments of one job run side by side
 * on one renderer; the join fetches the parts, joins them with the real ffmpeg and checks the frame count.
 * Audio is probed by the real engine; the frames of a segment are the render double's (the real segment render:
 * segment-join.test.ts).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ffmpegPath, ffprobePath, probeAudio, run } from "../../container/src/media/public";
import type { RenderInput, RenderOutput } from "../../container/src/runs/public";
import {
  type FakeEngines,
  fakeEngines,
  type Harness,
  makeWav,
  startHarness,
  type TestVideoDispatch,
  until,
} from "./helpers/renderer-harness";
import type { SeenEvent } from "./helpers/renderer-worker";

let h: Harness;
let engines: FakeEngines;
let dir: string;
const TIMELINE_FRAMES = 90;

beforeAll(async () => {
  engines = fakeEngines();
  engines.probeAudio = async (p, opts) => probeAudio(p, opts?.signal);
  // A segment's render double: its frames as renderVideo computes them, and segment 0's audio track.
  const render = engines.renderVideo;
  engines.renderVideo = async (input: RenderInput): Promise<RenderOutput> => {
    const out = await render(input);
    const s = input.segment;
    if (!s) return out;
    const range = {
      start: Math.round((TIMELINE_FRAMES * s.index) / s.count),
      end: Math.round((TIMELINE_FRAMES * (s.index + 1)) / s.count),
    };
    const audioTrackPath = input.audioTrack ? path.join(input.workDir, "audio.m4a") : undefined;
    if (audioTrackPath) await writeFile(audioTrackPath, Buffer.alloc(500, 3));
    return { ...out, range, timeline: { frames: TIMELINE_FRAMES }, ...(audioTrackPath ? { audioTrackPath } : {}) };
  };
  h = await startHarness({ engines, env: { MAX_CONCURRENT_VIDEO_JOBS: "2" } });
  dir = await mkdtemp(path.join(os.tmpdir(), "jobs-segments-"));
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await until(() => h.renderer.manager.activeJobs === 0, 10_000, "renderer idle");
  h.worker.reset();
  engines.calls.renderVideo.length = 0;
});

/** A run's events arrive under its own name (as a segment's callback URL names its segment). */
function runOf(d: TestVideoDispatch, name: string): TestVideoDispatch {
  return { ...d, callbackUrl: h.worker.callbackUrl(name, d.attempt) };
}
const ended = (name: string) =>
  h.worker.waitFor((e) => e.jobId === name && ["succeeded", "failed", "split"].includes(e.body.type), 20_000);
const stages = (name: string) =>
  h.worker.eventsOf(name).flatMap((e) => (e.body.type === "progress" ? [e.body.stage] : []));

async function withAudio(seconds: number, over: Record<string, unknown> = {}) {
  const d = await h.videoDispatch(over);
  return { ...d, audioUrl: h.sources.file(`${d.jobId}-${seconds}.wav`, makeWav(seconds), "audio/wav") };
}

describe("a run given the split rule", () => {
  it("with audio over the threshold: reports ceil(audio / threshold) segments after the access check, renders nothing", async () => {
    const d = await withAudio(2.5, { split: { thresholdSeconds: 1, maxSegments: 8 } });
    expect((await h.post(d)).status).toBe(202);
    const end = await ended(d.jobId);
    expect(end.body).toMatchObject({ type: "split", segments: 3, attempt: d.attempt });
    expect(stages(d.jobId)).toEqual(["preparing_media", "rendering"]);
    expect(engines.calls.renderVideo).toHaveLength(0);
    expect(h.worker.log.filter((l) => l.startsWith("put:"))).toEqual([]);
  });

  it("capped by maxSegments; at or under the threshold, or with the alpha video, it renders the whole video", async () => {
    const capped = await withAudio(2.5, { split: { thresholdSeconds: 1, maxSegments: 2 } });
    await h.post(capped);
    expect((await ended(capped.jobId)).body).toMatchObject({ type: "split", segments: 2 });
    const short = await withAudio(0.5, { split: { thresholdSeconds: 1, maxSegments: 8 } });
    await h.post(short);
    expect((await ended(short.jobId)).body.type).toBe("succeeded");
    const alpha = await withAudio(2.5, { split: { thresholdSeconds: 1, maxSegments: 8 } });
    alpha.settings = { ...alpha.settings, alpha: true };
    alpha.outputs = { ...alpha.outputs, alphaVideo: h.worker.objectUrl(`videos/${alpha.jobId}.webm`) };
    await h.post(alpha);
    expect((await ended(alpha.jobId)).body.type).toBe("succeeded");
    expect(engines.calls.renderVideo.map((i) => i.segment)).toEqual([undefined, undefined]);
  });
});

describe("segment runs", () => {
  it("render their segment side by side on one renderer, upload their part (segment 0 the audio track) and report their frames", async () => {
    const d = await withAudio(2.5);
    const part = (k: number) => h.worker.objectUrl(`videos/${d.jobId}/part-${k}.mp4`);
    const segments = [0, 1].map((index) =>
      runOf(
        {
          ...d,
          segment: { index, count: 2 },
          outputs: {
            video: part(index),
            ...(index === 0 ? { audioTrack: h.worker.objectUrl(`videos/${d.jobId}/audio.m4a`) } : {}),
          },
        },
        `${d.jobId}-s${index}`,
      ),
    );
    for (const s of segments) expect((await h.post(s)).body).toMatchObject({ accepted: true, duplicate: false });
    // The same segment again is the same run; the other segment of the job did not supersede it.
    expect((await h.post(segments[1])).body).toMatchObject({ accepted: true, duplicate: true });
    const ends = await Promise.all(segments.map((_, k) => ended(`${d.jobId}-s${k}`)));
    expect(ends.map((e: SeenEvent) => e.body.type)).toEqual(["succeeded", "succeeded"]);
    expect(ends.map((e) => e.body.result.segment)).toEqual([
      { index: 0, start: 0, end: 45, frames: TIMELINE_FRAMES },
      { index: 1, start: 45, end: 90, frames: TIMELINE_FRAMES },
    ]);
    expect(engines.calls.renderVideo.map((i) => [i.segment, i.audioTrack])).toEqual(
      expect.arrayContaining([
        [{ index: 0, count: 2 }, true],
        [{ index: 1, count: 2 }, false],
      ]),
    );
    expect([...h.worker.objects.keys()].filter((k) => k.startsWith("videos/")).sort()).toEqual([
      `videos/${d.jobId}/audio.m4a`,
      `videos/${d.jobId}/part-0.mp4`,
      `videos/${d.jobId}/part-1.mp4`,
    ]);
    expect(h.worker.objects.get(`videos/${d.jobId}/audio.m4a`)?.contentType).toBe("audio/mp4");
  });
});

/** A part as a segment run encodes it: video only, x264, starting with an IDR frame. */
async function part(file: string, frames: number, colour: string) {
  const r = await run(ffmpegPath(), [
    ...["-v", "error", "-f", "lavfi", "-i", `color=c=${colour}:size=64x64:rate=25`, "-frames:v", String(frames)],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-an", "-f", "mp4", file],
  ]);
  expect(r.code).toBe(0);
}

async function frameCount(body: Buffer): Promise<number> {
  const file = path.join(dir, `probe-${Date.now()}.mp4`);
  await writeFile(file, body);
  const r = await run(ffprobePath(), [
    ...["-v", "error", "-select_streams", "v:0", "-count_packets"],
    ...["-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", file],
  ]);
  return Number(r.stdout.toString().trim());
}

describe("the join run", () => {
  async function joinDispatch(frames: number) {
    const d = await withAudio(2.5);
    const files = [path.join(dir, `${d.jobId}-p0.mp4`), path.join(dir, `${d.jobId}-p1.mp4`)];
    await part(files[0], 30, "red");
    await part(files[1], 20, "blue");
    const audio = path.join(dir, `${d.jobId}-a.m4a`);
    const r = await run(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=2", "-c:a", "aac", audio]);
    expect(r.code).toBe(0);
    for (const [k, f] of files.entries())
      h.worker.objects.set(`videos/${d.jobId}/part-${k}.mp4`, { body: await readFile(f), contentType: "video/mp4" });
    h.worker.objects.set(`videos/${d.jobId}/audio.m4a`, { body: await readFile(audio), contentType: "audio/mp4" });
    const url = (key: string) => h.worker.objectUrl(`videos/${d.jobId}/${key}`);
    return runOf(
      { ...d, join: { parts: [url("part-0.mp4"), url("part-1.mp4")], audioTrack: url("audio.m4a"), frames } },
      `${d.jobId}-join`,
    );
  }

  it("joins the parts and the audio track without encoding again, checks the frames, uploads the MP4", async () => {
    const d = await joinDispatch(50);
    await h.post(d);
    const end = await ended(`${d.jobId}-join`);
    expect(end.body.type, JSON.stringify(end.body)).toBe("succeeded");
    expect(end.body.result).toMatchObject({ frames: 50, fps: 25, durationSeconds: 2, width: 128, height: 128 });
    expect(stages(`${d.jobId}-join`)).toEqual(["encoding", "uploading"]);
    const mp4 = h.worker.objects.get(`videos/${d.jobId}.mp4`)!;
    expect(await frameCount(mp4.body)).toBe(50);
    expect(engines.calls.renderVideo).toHaveLength(0);
  });

  it("fails render_failed when the parts do not hold the timeline's frames", async () => {
    const d = await joinDispatch(51);
    await h.post(d);
    const end = await ended(`${d.jobId}-join`);
    expect(end.body).toMatchObject({ type: "failed", error: { code: "render_failed", retryable: true } });
    expect(h.worker.objects.has(`videos/${d.jobId}.mp4`)).toBe(false);
  });
});
