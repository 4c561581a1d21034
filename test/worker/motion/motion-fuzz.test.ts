import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { prng } from "@avatar-video/motion-model";
import { accept, motionAccount, pcm16, sleep, token, upgrade } from "../helpers/motion";

type Msg = string | Uint8Array;

/** One random client message: valid or not, in or out of order, small or oversized. */
function randomMessage(rand: () => number): Msg {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
  switch (Math.floor(rand() * 10)) {
    case 0:
      return bytes(Math.floor(rand() * 4000)); // random binary (noise audio, odd lengths, empty)
    case 1:
      return bytes(65_537 + Math.floor(rand() * 5000)); // oversized binary
    case 2:
      return "x".repeat(65_537); // oversized text
    case 3:
      return JSON.stringify({
        type: "start",
        sampleRate: pick([16000, 8000, 48000, 7999, 48001, 22050.5, "16000", null, -1, 1e308]),
      });
    case 4:
      return JSON.stringify({ type: "stop" });
    case 5:
      return pick([
        "{",
        "null",
        "[]",
        "42",
        '"start"',
        "{}",
        '{"type":null}',
        '{"type":"START"}',
        '{"type":"start","sampleRate":16000,"x":1}',
        "\u0000",
        "🙂",
      ]);
    case 6:
      return JSON.stringify({
        type: pick(["motion", "ready", "end", "ping", "", "__proto__", "constructor"]),
        frame: rand(),
      });
    case 7:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 0xd7ff)),
      );
    default:
      return pcm16(0.02 + rand() * 0.2, 16000);
  }
}

describe("protocol fuzz: random, malformed, oversized and out-of-order messages", () => {
  it("every connection ends in a normal flow or a documented close code with a reason; the service keeps working", async () => {
    const a = await motionAccount();
    await env.ACCOUNT_LIMITER.getByName(a.accountId).setMotionLimits({ connections: 100 });
    const rand = prng(20261123);
    const codes: Record<number, number> = {};
    for (let round = 0; round < 40; round++) {
      const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
      const n = 1 + Math.floor(rand() * 6);
      // Half the rounds start properly, so later messages are judged in the streaming phase too.
      if (rand() < 0.5) c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
      for (let i = 0; i < n; i++) {
        try {
          c.ws.send(randomMessage(rand));
        } catch {
          break; // closed by the service already
        }
      }
      const closed = await Promise.race([c.closed, sleep(1500).then(() => undefined)]);
      if (closed) {
        expect([1000, 1003, 1008, 1009], JSON.stringify(closed)).toContain(closed.code);
        expect(closed.reason.length).toBeGreaterThan(0);
        codes[closed.code] = (codes[closed.code] ?? 0) + 1;
      } else {
        // Still open: only valid traffic was sent; the service is answering (ready and/or frames).
        c.ws.close(1000);
        await c.closed;
        codes[0] = (codes[0] ?? 0) + 1;
      }
    }
    // Every kind of refusal happened.
    expect(codes[1003]).toBeGreaterThan(0);
    expect(codes[1008]).toBeGreaterThan(0);
    expect(codes[1009]).toBeGreaterThan(0);
    // No crash: a fresh connection still streams normally.
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    c.ws.send(pcm16(0.5, 16000));
    c.ws.send(JSON.stringify({ type: "stop" }));
    expect((await c.closed).code).toBe(1000);
    expect(c.messages.at(-1)).toEqual({ type: "end", frames: 13 });
  }, 90_000);

  it("close reasons name the rule", async () => {
    const cases: Array<[Msg[], number, string]> = [
      [[pcm16(0.1, 16000)], 1008, 'audio before {"type":"start"}'],
      [['{"type":"stop"}'], 1008, "stop before start"],
      [['{"type":"start","sampleRate":16000}', '{"type":"start","sampleRate":16000}'], 1008, "start was already sent"],
      [['{"type":"start","sampleRate":96000}'], 1003, "start: sampleRate must be an integer from 8000 to 48000"],
      [["not json"], 1003, "text messages must be JSON"],
      [['{"type":"dance"}'], 1003, 'unknown message type "dance": expected start, perform or stop'],
    ];
    const a = await motionAccount();
    for (const [msgs, code, reason] of cases) {
      const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
      for (const m of msgs) c.ws.send(m);
      expect(await c.closed).toEqual({ code, reason });
    }
  });
});
