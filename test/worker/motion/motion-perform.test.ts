/**
 * The performance live (docs/motion.md, docs/performance.md): `start` may carry a performance, `perform`
 * changes it mid-stream (eased like a cue), frames carry the expression's channels, and a bad field closes
 * the connection with 1003 naming the field and the rule.
 */
import { describe, expect, it } from "vitest";
import type { MotionMessage } from "../../../packages/motion-client/src/types";
import { accept, motionAccount, pcm16, sleep, token, upgrade } from "../helpers/motion";

async function open() {
  const a = await motionAccount();
  return accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
}

const motion = (messages: unknown[]) =>
  messages.filter((m): m is MotionMessage => (m as MotionMessage).type === "motion");

describe("the performance over a live connection", () => {
  it("start carries a performance; perform changes it from the next frames, eased in", async () => {
    const c = await open();
    c.ws.send(
      JSON.stringify({ type: "start", sampleRate: 16000, performance: { expression: "happy", intensity: 0.8 } }),
    );
    const audio = pcm16(2, 16000);
    for (let i = 0; i < audio.length / 2; i += 3200) c.ws.send(audio.slice(i, i + 3200));
    await sleep(100);
    c.ws.send(JSON.stringify({ type: "perform", expression: "surprised", headMotion: 0 }));
    for (let i = audio.length / 2; i < audio.length; i += 3200) c.ws.send(audio.slice(i, i + 3200));
    await sleep(100);
    c.ws.send(JSON.stringify({ type: "stop" }));
    expect((await c.closed).code).toBe(1000);
    const frames = motion(c.messages);
    expect(frames.length).toBe(50);
    // Eased in from the still portrait over the first half second, then held.
    expect(frames[0].expression).toBeUndefined();
    expect(frames[20].expression).toEqual({ happy: 0.8, serious: 0, surprised: 0, sad: 0 });
    // After the change: surprise at the same intensity, the head still; in between a blend, no jump.
    const last = frames.at(-1)!;
    expect(last.expression).toEqual({ happy: 0, serious: 0, surprised: 0.8, sad: 0 });
    expect(last.head).toEqual({ yaw: 0, pitch: 0, roll: 0 });
    for (let i = 1; i < frames.length; i++) {
      const a = frames[i - 1].expression?.happy ?? 0;
      const b = frames[i].expression?.happy ?? 0;
      expect(Math.abs(b - a)).toBeLessThan(0.25);
    }
  });

  it("without a performance, frames carry no expression (as before)", async () => {
    const c = await open();
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    c.ws.send(pcm16(1, 16000));
    await sleep(50);
    c.ws.send(JSON.stringify({ type: "stop" }));
    await c.closed;
    expect(motion(c.messages).every((f) => f.expression === undefined)).toBe(true);
  });

  it.each([
    [
      { type: "start", sampleRate: 16000, performance: { headMotion: 4 } },
      "start: performance.headMotion must be between 0 and 3",
    ],
    [
      {
        type: "start",
        sampleRate: 16000,
        performance: {
          timeline: [
            { atSeconds: 2, expression: "happy" },
            { atSeconds: 1, expression: "sad" },
          ],
        },
      },
      "start: performance.timeline[1].atSeconds must not be earlier than timeline[0].atSeconds",
    ],
    [{ type: "start", sampleRate: 16000, performance: { mood: "x" } }, "start: performance.mood is not a known field"],
  ])("a bad start performance closes with 1003 naming the field: %j", async (start, reason) => {
    const c = await open();
    c.ws.send(JSON.stringify(start));
    const closed = await c.closed;
    expect(closed.code).toBe(1003);
    expect(closed.reason).toContain(reason);
  });

  it.each([
    [
      { type: "perform", expression: "angry" },
      "perform: expression must be one of neutral, happy, serious, surprised, sad",
    ],
    [{ type: "perform", blinksPerMinute: 41 }, "perform: blinksPerMinute must be between 0 and 40"],
    [{ type: "perform", timeline: [] }, "perform: timeline is not a known field"],
  ])("a bad perform closes with 1003 naming the field: %j", async (perform, reason) => {
    const c = await open();
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    c.ws.send(JSON.stringify(perform));
    const closed = await c.closed;
    expect(closed.code).toBe(1003);
    expect(closed.reason).toBe(reason);
  });

  it("perform before start is a protocol violation (1008)", async () => {
    const c = await open();
    c.ws.send(JSON.stringify({ type: "perform", expression: "happy" }));
    expect((await c.closed).code).toBe(1008);
  });
});
