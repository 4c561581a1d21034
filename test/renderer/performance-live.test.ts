/**
 * The performance live is the rendered one (docs/performance.md, "Live"): the stream's frames carry the
 * expression weights the renderer's pose would have at that moment, and the live client turns a frame into
 * the same face pose the renderer deforms (poseOf), so live and rendered faces differ only by the codec.
 */
import { describe, expect, it } from "vitest";
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";
import { MotionStream, PerformanceTrack, smoothstep } from "@avatar-video/motion-model";
import { poseOf } from "../../packages/motion-client/src/face-pose";
import { synthSpeech, speechLike } from "./helpers/media-audio";

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

describe("the performance live", () => {
  const performance: Performance = {
    ...PERFORMANCE_DEFAULTS,
    expression: "happy",
    intensity: 0.7,
    timeline: [{ atSeconds: 2, expression: "sad", intensity: 0.5 }],
    emphasis: 2,
  };

  it("frames carry the expression of the renderer's track at their time, and poseOf draws it", () => {
    const stream = new MotionStream(16_000, 5, performance);
    const frames = [...stream.pushSamples(synthSpeech(speechLike(4, 2), 16_000)), ...stream.finish()];
    const track = new PerformanceTrack(performance);
    let brows = 0;
    for (const f of frames) {
      const w = track.at(f.t).expression;
      const k = smoothstep(0, 0.5, f.t);
      const want = { happy: r4(w.happy * k), serious: 0, surprised: 0, sad: r4(w.sad * k) };
      if (f.t === 0) expect(f.expression).toBeUndefined();
      else expect(f.expression).toEqual(want);
      const pose = poseOf({ type: "motion", ...f });
      expect(pose.expression).toEqual(f.expression);
      expect(pose.brow).toBe(f.brow ?? 0);
      if ((f.brow ?? 0) > 0) brows++;
    }
    // Emphasis 2: the stressed syllables raise the brows live too.
    expect(brows).toBeGreaterThan(0);
  });

  it("perform mid-stream changes the next frames, eased in over 0.3 s", () => {
    const stream = new MotionStream(16_000, 5);
    const speech = synthSpeech(speechLike(3, 4), 16_000);
    const before = stream.pushSamples(speech.subarray(0, 16_000));
    stream.perform({ expression: "surprised", intensity: 1, blinksPerMinute: 0 });
    const after = [...stream.pushSamples(speech.subarray(16_000)), ...stream.finish()];
    expect(before.every((f) => f.expression === undefined)).toBe(true);
    const start = after[0].t;
    // Eased: not at once, fully after 0.3 s; no new blink once the rate is 0 (one under way may finish).
    expect(after[0].expression?.surprised ?? 0).toBeLessThan(0.2);
    expect(after.find((f) => f.t - start >= 0.1)?.expression?.surprised).toBeGreaterThan(0);
    for (const f of after.filter((f) => f.t - start >= 0.3)) expect(f.expression?.surprised).toBe(1);
    for (const f of after.filter((f) => f.t - start >= 0.4)) expect(f.blink).toBe(0);
  });
});
