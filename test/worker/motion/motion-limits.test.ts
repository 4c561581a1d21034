import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectError } from "../helpers/open-fixtures";
import { accept, motionAccount, nowS, pcm16, sleep, token, upgrade } from "../helpers/motion";

const limiter = (accountId: string) => env.ACCOUNT_LIMITER.getByName(accountId);

/** Streams `seconds` of audio in real time (100 ms chunks) on an open connection. */
async function streamRealTime(ws: WebSocket, seconds: number, rate = 16000) {
  const audio = pcm16(seconds, rate);
  const chunk = (rate / 10) * 2;
  const t0 = Date.now();
  for (let i = 0, k = 0; i < audio.length; i += chunk, k++) {
    ws.send(audio.slice(i, i + chunk));
    await sleep(Math.max(0, t0 + (k + 1) * 100 - Date.now()));
  }
}

describe("limits, enforced by the account's object", () => {
  it("10 concurrent connections per account by default; the 11th is 429 until one closes", async () => {
    const a = await motionAccount();
    const open = [];
    for (let i = 0; i < 10; i++) open.push(accept(await upgrade({ token: await token(a), avatarId: a.avatarId })));
    const t = await token(a);
    const refused = await upgrade({ token: t, avatarId: a.avatarId });
    await expectError(refused, 429, "rate_limit_exceeded", "limit is 10 at a time");
    expect(refused.headers.get("Retry-After")).toBe("5");
    open[0]!.ws.close(1000);
    await open[0]!.closed;
    await sleep(100);
    // The refused token was not spent: it opens the connection now.
    const res = await upgrade({ token: t, avatarId: a.avatarId });
    expect(res.status).toBe(101);
    open.push(accept(res));
    for (const c of open.slice(1)) c.ws.close(1000);
    await Promise.all(open.slice(1).map((c) => c.closed));
    await sleep(100);
    expect((await limiter(a.accountId).motionStatus()).open).toBe(0);
  });

  it("pacing: audio more than 2 s ahead of real time → 1008 naming the rule, then 429 (before any read) for 10 s; 1.5 s ahead, then real time, streams on", async () => {
    const a = await motionAccount();
    const flood = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    flood.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    const audio = pcm16(6, 16000);
    for (let i = 0; i < audio.length; i += 3200) flood.ws.send(audio.slice(i, i + 3200)); // 6 s at network speed
    const closed = await flood.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^audio is \d+ ms ahead of real time; stream at most 2 s ahead$/);
    // The flooding account's next connections wait 10 s (the refused token stays unspent). Even the first is
    // refused before any read (the object that closed the flood told this isolate): the same 429 with its
    // Avatar's rig gone, where an admission's reads would answer 404.
    await env.MEDIA.delete(`avatars/${a.avatarId}/rig.json`);
    const cooled = await upgrade({ token: await token(a), avatarId: a.avatarId });
    expect(Number(cooled.headers.get("Retry-After"))).toBeGreaterThanOrEqual(9);
    await expectError(cooled, 429, "rate_limit_exceeded", "sent audio faster than real time");
    // The account's limiter, which answers every other isolate, holds the cool-down too.
    await sleep(100);
    const held = await limiter(a.accountId).admitMotionConnection({
      connectionId: crypto.randomUUID(),
      jti: crypto.randomUUID(),
      exp: nowS() + 60,
    });
    expect(held).toMatchObject({ ok: false, code: "rate_limit_exceeded", message: expect.stringContaining("faster") });

    const b = await motionAccount();
    const honest = accept(await upgrade({ token: await token(b), avatarId: b.avatarId }));
    honest.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    honest.ws.send(pcm16(1.5, 16000)); // a head start, as a client with a buffer sends
    await streamRealTime(honest.ws, 1.5);
    honest.ws.send(JSON.stringify({ type: "stop" }));
    expect(await honest.closed).toEqual({ code: 1000, reason: "end of stream" });
  });

  it("a flooding account's session-token requests get the cool-down's 429 before the key lookup; other accounts' do not", async () => {
    const mint = (apiKey: string) =>
      SELF.fetch("http://x/v1/console/session-tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": apiKey },
        body: JSON.stringify({ expireAt: nowS() + 60 }),
      });
    const [a, b] = [await motionAccount(), await motionAccount()];
    for (const k of [a.apiKey, b.apiKey]) expect((await mint(k)).status).toBe(200);
    const flood = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    flood.ws.send(JSON.stringify({ type: "start", sampleRate: 8000 }));
    flood.ws.send(pcm16(2.5, 8000));
    expect((await flood.closed).code).toBe(1008);
    // Revoked now: a key lookup would answer 401, so the 429 shows no lookup ran.
    await env.DB.prepare("update apps set revoked_at = ? where id = ?").bind(Date.now(), a.appId).run();
    const refused = await mint(a.apiKey);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(9);
    await expectError(refused, 429, "rate_limit_exceeded", "session tokens wait");
    expect((await mint(b.apiKey)).status).toBe(200);
  });

  it("a repeat flood doubles the cool-down (10 s, 20 s, 40 s …, at most 10 min); 10 min after the last one ends it is 10 s again", async () => {
    const a = await motionAccount();
    const lim = limiter(a.accountId);
    const flood = (now: number) => lim.endMotionConnection(crypto.randomUUID(), now + 10_000, now);
    const t = Date.now();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(((await flood(t))! - t) / 1000);
    expect(waits).toEqual([10, 20, 40, 80, 160, 320, 600, 600]);
    const refused = await lim.admitMotionConnection(
      { connectionId: crypto.randomUUID(), jti: crypto.randomUUID(), exp: nowS() + 60 },
      t,
    );
    expect(refused).toMatchObject({ ok: false, code: "rate_limit_exceeded", retryAfterSeconds: 600 });
    const later = t + 600_000 + 600_000 + 1;
    expect(((await flood(later))! - later) / 1000).toBe(10);
  });

  it("pacing counts the message itself: 2.5 s in one message (past 2 s and the 250 ms jitter allowance) → 1008 before any of it is analysed", async () => {
    const a = await motionAccount();
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 8000 }));
    c.ws.send(pcm16(2.5, 8000)); // 40 000 bytes
    const closed = await c.closed;
    expect(closed.code).toBe(1008);
    // Ahead of the wall time since the connection opened (a few ms before this message).
    const ahead = Number(/^audio is (\d+) ms ahead of real time; stream at most 2 s ahead$/.exec(closed.reason)?.[1]);
    expect(ahead).toBeGreaterThan(2250);
    expect(ahead).toBeLessThanOrEqual(2500);
    expect(c.messages.filter((m) => m.type === "motion")).toHaveLength(0);
  });

  it("a 2 s message is analysed in slices: another connection's frame is sent before its last frames", async () => {
    // Every connection's object shares one thread locally (and may in production): a 2 s message analysed at
    // once held it ~10–20 ms, delaying every other connection's frames (a flooder's first message, issue 24).
    const open = async () => {
      const a = await motionAccount();
      return accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    };
    const [long, short] = [await open(), await open()];
    const order: string[] = [];
    long.ws.addEventListener("message", (e) => JSON.parse(String(e.data)).type === "motion" && order.push("long"));
    short.ws.addEventListener("message", (e) => JSON.parse(String(e.data)).type === "motion" && order.push("short"));
    const speech = pcm16(2.1, 16000);
    for (const c of [long, short]) c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    short.ws.send(speech.slice(0, 3200)); // 100 ms: no frame yet (the first needs 111 ms of audio)
    await sleep(50); // well within the 100 ms sent (and the 100 ms of grace) after which idle frames would start
    long.ws.send(speech.slice(0, 64000)); // 2 s: 48 frames
    short.ws.send(speech.slice(3200, 3840)); // 20 ms more: its first frame is due
    for (let i = 0; i < 50 && (order.filter((o) => o === "long").length < 48 || !order.includes("short")); i++)
      await sleep(10);
    expect(order.filter((o) => o === "long")).toHaveLength(48);
    expect(order.filter((o) => o === "short")).toHaveLength(1);
    expect(order.indexOf("short")).toBeLessThan(order.lastIndexOf("long"));
    for (const c of [long, short]) c.ws.close(1000);
  });

  it("idle timeout: no client message for the idle limit → 1008", async () => {
    const a = await motionAccount();
    await limiter(a.accountId).setMotionLimits({ idleSeconds: 1 });
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    const t0 = Date.now();
    const closed = await c.closed;
    expect(closed).toEqual({ code: 1008, reason: "idle timeout: no message for 1 s" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(Date.now() - t0).toBeLessThan(2500);
  });

  it("session length: the connection closes with 1008 when its time is up, even while streaming", async () => {
    const a = await motionAccount();
    await limiter(a.accountId).setMotionLimits({ sessionSeconds: 2 });
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    const streaming = streamRealTime(c.ws, 3).catch(() => undefined);
    const closed = await c.closed;
    expect(closed).toEqual({ code: 1008, reason: "session length limit of 2 s reached" });
    await streaming;
    expect(c.messages.filter((m) => m.type === "motion").length).toBeGreaterThan(30);
  });

  it("message size: 64 KiB is accepted, one byte more closes with 1009", async () => {
    const a = await motionAccount();
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 48000 }));
    c.ws.send(new Uint8Array(65536));
    await sleep(200);
    c.ws.send(new Uint8Array(65537));
    expect(await c.closed).toEqual({ code: 1009, reason: "message of 65537 bytes is over the 65536-byte limit" });
    expect(c.messages.filter((m) => m.type === "motion").length).toBeGreaterThan(0);
  });

  it("an established connection outlives its token: expireAt 3 s ahead, streaming for 10 s", async () => {
    const a = await motionAccount();
    const t = await token(a, { expireAt: nowS() + 3 });
    const c = accept(await upgrade({ token: t, avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    await streamRealTime(c.ws, 10);
    expect(nowS()).toBeGreaterThan(JSON.parse(atob(t.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).exp);
    c.ws.send(JSON.stringify({ type: "stop" }));
    expect((await c.closed).code).toBe(1000);
    // Every 40 ms of the 10 s gets its frame (a sender held up on a loaded machine may add idle frames).
    const frames = c.messages.filter((m) => m.type === "motion");
    expect(frames.filter((f) => !f.idle).map((f) => f.audioMs)).toEqual(Array.from({ length: 250 }, (_, n) => n * 40));
    expect(c.messages.at(-1)).toEqual({ type: "end", frames: frames.length });
    // …while the expired token opens nothing new.
    await expectError(await upgrade({ token: t, avatarId: a.avatarId }), 401, "unauthorized", "expired");
  }, 20_000);

  it("idle frames: with no audio covering real time, frames keep coming at 25 fps with the mouth closed", async () => {
    const a = await motionAccount();
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    await sleep(2200);
    const frames = c.messages.filter((m) => m.type === "motion");
    // 2.2 s minus the 100 ms of grace and the frame that confirms it: ~51 frames, paced in real time, each marked
    // idle at audio 0.
    expect(frames.length).toBeGreaterThanOrEqual(46);
    expect(frames.length).toBeLessThanOrEqual(54);
    for (const f of frames) {
      expect([f.mouthOpen, f.mouthWide, f.mouthRound, f.lipsClosed]).toEqual([0, 0, 0, 0]);
      expect([f.idle, f.audioMs]).toEqual([true, 0]);
    }
    expect(new Set(frames.map((f) => f.head.yaw)).size).toBeGreaterThan(20);
    c.ws.close(1000);
    await c.closed;
  });
});
