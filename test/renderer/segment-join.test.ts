/**
 * Split renders (issue 34 point 3): a video rendered as segments on several instances and joined without
 * encoding again is the video one instance renders. Losslessly encoded, every decoded frame of the joined
 * file equals the single render's (no repeated or missing frame at a seam, the animation continuous); with
 * the production encoder, the frame count, duration and the audio track (packet for packet) are the single
 * render's and the frames match it closely everywhere.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobFailure } from "../../container/src/rules/public";
import {
  type RenderInput,
  type RenderResult,
  joinVideo,
  planSegments,
  renderVideo,
} from "../../container/src/video/public";
import { encodeAudio, speechLike, synthSpeech } from "./helpers/media-audio";
import { SMALL_SQUARE, type TestAvatar, testAvatar } from "./helpers/media-avatar";
import { framePsnrs, streamInfo, streamMd5s } from "./helpers/video-compare";

/** x264 lossless: decoded frames are the painted frames, bit for bit. */
const LOSSLESS = ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p"];

let dir: string;
let avatar: TestAvatar;
let audioPath: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "segment-join-"));
  avatar = await testAvatar("single-phone");
  audioPath = join(dir, "speech.wav");
  await encodeAudio(synthSpeech(speechLike(3, 5), 24_000), 24_000, audioPath, "wav");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function input(extra: Partial<RenderInput> = {}): RenderInput {
  return {
    portraitPng: avatar.portraitPng,
    rig: avatar.rig,
    audioPath,
    settings: { ...SMALL_SQUARE, leadInSeconds: 0.2, leadOutSeconds: 0.1 },
    workDir: mkdtempSync(join(dir, "job-")),
    seed: 99,
    threads: 1,
    ...extra,
  };
}

/**
 * Render the segments the plan gives (each in its own scratch dir, as on its own instance; segment 0 also the
 * audio track, as in a split job) and join them.
 */
async function splitRender(whole: RenderResult, videoArgs?: string[]): Promise<{ mp4: string; seams: number[] }> {
  const plan = planSegments(whole.timeline, { thresholdSeconds: 1, maxSegments: 3 });
  const workDir = mkdtempSync(join(dir, "join-"));
  const parts = await Promise.all(
    plan.map((_, index) =>
      renderVideo(input({ segment: { index, count: plan.length }, audioTrack: index === 0, videoArgs })),
    ),
  );
  parts.forEach((p, k) => expect(p.range).toEqual(plan[k]));
  expect(parts.map((p) => !!p.audioTrackPath)).toEqual([true, false, false]);
  const joined = await joinVideo({
    audioTrack: parts[0].audioTrackPath!,
    segments: parts.map((p) => p.mp4Path),
    timeline: whole.timeline,
    workDir,
  });
  return { mp4: joined.mp4Path, seams: plan.slice(1).map((s) => s.start) };
}

describe("planSegments", () => {
  it("leaves audio at or under the threshold whole, and splits longer audio into contiguous ranges", () => {
    expect(planSegments({ frames: 3025, audioSeconds: 120 })).toEqual([{ start: 0, end: 3025 }]);
    const plan = planSegments({ frames: 9025, audioSeconds: 360 }, { thresholdSeconds: 120, maxSegments: 8 });
    expect(plan).toEqual([
      { start: 0, end: 3008 },
      { start: 3008, end: 6017 },
      { start: 6017, end: 9025 },
    ]);
    const capped = planSegments({ frames: 90_025, audioSeconds: 3600 }, { thresholdSeconds: 120, maxSegments: 8 });
    expect(capped).toHaveLength(8);
    capped.forEach((s, k) => expect(s.start).toBe(k ? capped[k - 1].end : 0));
    expect(capped.at(-1)!.end).toBe(90_025);
  });
});

describe("a segment that cannot be rendered", () => {
  const refusal = (extra: Partial<RenderInput>) =>
    renderVideo(input(extra)).then(
      () => undefined,
      (e: JobFailure) => [e.code, e.message],
    );

  it("is refused (renderer_rejected): an index outside the count, more segments than frames, or with the alpha video", async () => {
    expect(await refusal({ segment: { index: 3, count: 3 } })).toEqual([
      "renderer_rejected",
      "Invalid segment 3 of 3.",
    ]);
    expect(await refusal({ segment: { index: 0, count: 10_000 } })).toEqual([
      "renderer_rejected",
      "10000 segments cannot split 107 frames.",
    ]);
    const alpha = { ...SMALL_SQUARE, leadInSeconds: 0, leadOutSeconds: 0, alpha: true };
    expect(await refusal({ segment: { index: 0, count: 2 }, settings: alpha })).toEqual([
      "renderer_rejected",
      "A render with the alpha video is not split.",
    ]);
  }, 60_000);
});

describe("a render split in three and joined", () => {
  it("losslessly: every frame equals the single render's (no repeated or missing frame at a seam)", async () => {
    const whole = await renderVideo(input({ videoArgs: LOSSLESS }));
    const { mp4 } = await splitRender(whole, LOSSLESS);
    const [single, joined] = await Promise.all([streamMd5s(whole.mp4Path, "v"), streamMd5s(mp4, "v")]);
    expect(single).toHaveLength(whole.timeline.frames);
    expect(joined).toEqual(single);
  }, 120_000);

  it("with the production encoder: frames, duration and audio are the single render's", async () => {
    const whole = await renderVideo(input());
    const { mp4, seams } = await splitRender(whole);
    const [a, b] = await Promise.all([streamInfo(whole.mp4Path), streamInfo(mp4)]);
    expect(b.streams.map((s) => [s.codec_type, s.nb_frames])).toEqual(
      a.streams.map((s) => [s.codec_type, s.nb_frames]),
    );
    expect(Number(b.format.duration)).toBeCloseTo(Number(a.format.duration), 3);
    // One audio track encoded once over the whole timeline: the same packets as the single render's.
    expect(await streamMd5s(mp4, "a")).toEqual(await streamMd5s(whole.mp4Path, "a"));
    // Encoded apart, the frames differ only by the encoder's rounding; at a seam no more than elsewhere.
    const psnr = await framePsnrs(whole.mp4Path, mp4);
    expect(psnr).toHaveLength(whole.timeline.frames);
    expect(Math.min(...psnr)).toBeGreaterThan(40);
    for (const seam of seams) expect(Math.min(psnr[seam - 1], psnr[seam])).toBeGreaterThan(40);
  }, 120_000);
});
