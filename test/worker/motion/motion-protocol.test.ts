import { describe, expect, it } from "vitest";
import { accept, motionAccount, pcm16, sleep, token, upgrade } from "../helpers/motion";

describe("motion.v1 over a live connection", () => {
  it("start → ready, audio → frames, stop → remaining frames + end, then a normal close", async () => {
    const a = await motionAccount();
    const res = await upgrade({ token: await token(a), avatarId: a.avatarId });
    expect(res.status).toBe(101);
    const c = accept(res);
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    const audio = pcm16(1, 16000);
    for (let i = 0; i < audio.length; i += 3200) c.ws.send(audio.slice(i, i + 3200));
    await sleep(100);
    c.ws.send(JSON.stringify({ type: "stop" }));
    const closed = await c.closed;
    expect(closed.code).toBe(1000);
    const ready = c.messages[0];
    expect(ready).toMatchObject({ type: "ready", fps: 25, modelVersion: "motion-2.1", avatar: { id: a.avatarId } });
    const frames = c.messages.filter((m) => m.type === "motion");
    expect(frames.length).toBe(25);
    expect(c.messages.at(-1)).toEqual({ type: "end", frames: 25 });
  });
});
