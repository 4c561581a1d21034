/**
 * The live client's choice of frame for the audio heard (packages/motion-client/src/frame-queue.ts): early
 * frames wait for their audio, late ones are skipped past, idle frames fill a starving stretch, and the mouth
 * never goes back to earlier audio.
 */
import { MotionStream } from "@avatar-video/motion-model";
import { describe, expect, it } from "vitest";
import { FrameQueue } from "../src/frame-queue";
import type { MotionMessage } from "../src/types";

const stream = new MotionStream(16_000);
/** A frame of audio at `audioMs`, or an idle frame standing there (the values do not matter here). */
const frame = (audioMs: number, idle = false): MotionMessage => {
  const { idle: _, ...values } = stream.idle();
  return { type: "motion", ...values, audioMs, ...(idle ? { idle: true as const } : {}) };
};

describe("frames drawn with the audio heard", () => {
  it("frames sent 2 s ahead wait for their audio: at every moment the drawn frame covers the audio heard", () => {
    const q = new FrameQueue();
    for (let ms = 0; ms < 2000; ms += 40) q.add(frame(ms));
    for (let heard = 0; heard < 2000; heard += 16.7) {
      q.at(heard);
      expect(q.current!.audioMs).toBeLessThanOrEqual(heard);
      expect(heard - q.current!.audioMs).toBeLessThan(40);
    }
  });

  it("after a stall: idle frames while starving, then the late frames skipped to the one heard now", () => {
    const q = new FrameQueue();
    for (let ms = 0; ms < 1000; ms += 40) q.add(frame(ms));
    expect(q.at(990)!.audioMs).toBe(960);
    // Nothing new for the audio heard: the drawn frame stays, however long it lasts.
    expect(q.at(1030)).toBeUndefined();
    // The service starves: idle frames standing where its audio ended, drawn one after another.
    const idle = [frame(1000, true), frame(1000, true)];
    q.add(idle[0]!);
    expect(q.at(1100)).toBe(idle[0]);
    q.add(idle[1]!);
    expect(q.at(1140)).toBe(idle[1]);
    // The late audio's frames come at once: the one for the audio heard now is drawn, the rest skipped…
    for (let ms = 1000; ms < 1600; ms += 40) q.add(frame(ms));
    expect(q.at(1290)!.audioMs).toBe(1280);
    // …and the later ones wait for their audio.
    expect(q.at(1330)!.audioMs).toBe(1320);
  });

  it("never back to earlier audio: a frame older than the one drawn is dropped; at one point audio wins over idle", () => {
    const q = new FrameQueue();
    q.add(frame(400));
    expect(q.at(420)!.audioMs).toBe(400);
    q.add(frame(360));
    expect(q.at(430)).toBeUndefined();
    const idle = frame(440, true);
    const sound = frame(440);
    q.add(sound);
    q.add(idle);
    expect(q.at(450)).toBe(sound);
  });

  it("a microphone (no position heard): the frame that arrived last", () => {
    const q = new FrameQueue();
    expect(q.latest()).toBeUndefined();
    q.add(frame(0));
    q.add(frame(40));
    expect(q.latest()!.audioMs).toBe(40);
    expect(q.latest()).toBeUndefined();
    expect(q.current!.audioMs).toBe(40);
  });
});
