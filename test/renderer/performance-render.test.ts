/**
 * The performance in rendered videos (container/src/video/pose-schedule.ts; docs/performance.md): explicit
 * defaults draw today's frames, cues ease in on the audio's time axis, the first and last frames stay the
 * photograph, head motion 0 is still, blinks follow the rate asked for.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";
import { analyzeLipSync } from "@avatar-video/motion-model";
import { makePoseSchedule, makeTimeline, renderVideo } from "../../container/src/video/public";
import { frameDigest } from "./helpers/frame-digest";
import { encodeAudio, speechLike, synthSpeech } from "./helpers/media-audio";
import { SMALL_SQUARE, testAvatar } from "./helpers/media-avatar";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "performance-render-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const perf = (p: Partial<Performance>): Performance => ({ ...PERFORMANCE_DEFAULTS, timeline: [], ...p });

function schedule(p: Performance | undefined, audioSeconds = 6) {
  const pcm = synthSpeech(speechLike(audioSeconds, 3), 16_000);
  const timeline = makeTimeline(pcm.length / 16_000, 0, 0);
  const s = makePoseSchedule({
    track: analyzeLipSync(pcm),
    timeline,
    seed: 77,
    interocular: 60,
    headMotion: true,
    blinks: true,
    performance: p,
  });
  return { timeline, poses: Array.from({ length: timeline.frames }, (_, f) => s.poseAt(f)) };
}

describe("the performance in a video's poses", () => {
  it("explicit defaults are the poses without a performance", () => {
    expect(schedule(perf({})).poses).toEqual(schedule(undefined).poses);
  });

  it("cues ease in over 0.3 s on the audio's axis; the first and last frames are the photograph", () => {
    const { timeline: tl, poses } = schedule(
      perf({ expression: "happy", intensity: 0.8, timeline: [{ atSeconds: 3, expression: "sad", intensity: 0.5 }] }),
    );
    const at = (audioSeconds: number) => poses[Math.round((tl.speechStart + audioSeconds) * tl.fps)];
    expect(poses[0].expression).toBeUndefined();
    expect(poses[poses.length - 1].expression).toBeUndefined();
    expect(at(2.9).expression).toEqual({ happy: 0.8, serious: 0, surprised: 0, sad: 0 });
    const mid = at(3.12).expression!;
    expect(mid.happy).toBeGreaterThan(0.1);
    expect(mid.sad).toBeGreaterThan(0.05);
    expect(at(3.32).expression).toEqual({ happy: 0, serious: 0, surprised: 0, sad: 0.5 });
  });

  it("head motion 0 keeps the head still; blinks 0 never close the eyes; 2 moves the head more than 1", () => {
    const still = schedule(perf({ headMotion: 0, blinksPerMinute: 0 })).poses;
    for (const p of still) {
      expect(Math.abs(p.yaw) + Math.abs(p.pitch) + Math.abs(p.roll)).toBe(0);
      expect(p.blinkL).toBe(0);
    }
    const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length);
    const calm = schedule(undefined).poses.map((p) => p.yaw);
    const lively = schedule(perf({ headMotion: 2 })).poses.map((p) => p.yaw);
    expect(sd(lively) / sd(calm)).toBeGreaterThan(2.4);
  });

  it("blinks at the rate asked for over a minute of video", () => {
    const { poses } = schedule(perf({ blinksPerMinute: 30 }), 60);
    let blinks = 0;
    for (let f = 1; f < poses.length; f++) if (poses[f].blinkL === 1 && poses[f - 1].blinkL < 1) blinks++;
    const minutes = poses.length / 25 / 60;
    expect(Math.abs(blinks / minutes - 30) / 30).toBeLessThanOrEqual(0.2);
  });
});

describe("the performance in a video's frames", () => {
  it("explicit defaults render today's frames; an expression changes them", async () => {
    const avatar = await testAvatar("single-phone");
    const audioPath = join(dir, "speech.wav");
    await encodeAudio(synthSpeech(speechLike(1.2, 2), 24_000), 24_000, audioPath, "wav");
    const render = async (performance?: Performance) => {
      const out = await renderVideo({
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
        audioPath,
        settings: { ...SMALL_SQUARE, ...(performance ? { performance } : {}) },
        workDir: mkdtempSync(join(dir, "job-")),
        seed: 1234,
        threads: 1,
      });
      return frameDigest(out.mp4Path);
    };
    const none = await render();
    expect(await render(perf({}))).toEqual(none);
    expect((await render(perf({ expression: "happy" }))).sha256).not.toBe(none.sha256);
  });
});
