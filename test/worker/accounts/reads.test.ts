import { env, evictAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, openFetch } from "../helpers/accounts";
import { probe } from "../helpers/probe-app";

const T0 = Date.UTC(2026, 0, 1);
const fresh = () => env.ACCOUNT_LIMITER.getByName(`reads-${crypto.randomUUID()}`);

describe("read bucket and per-minute cap (driven by `now`)", () => {
  it("token bucket: burst, then one read per refilled token; Retry-After until the next token", async () => {
    const limiter = fresh();
    const limits = { readsPerSecond: 2, readBurst: 5, readsPerMinute: 100 };
    for (let i = 0; i < 5; i++) {
      const d = await limiter.admitRead("avatar", limits, T0);
      expect(d.ok).toBe(true);
      expect(d.burst.remaining).toBe(4 - i);
    }
    const refused = await limiter.admitRead("avatar", limits, T0);
    expect(refused).toMatchObject({ ok: false, retryAfterSeconds: 1, burst: { remaining: 0, resetSeconds: 3 } });
    expect((await limiter.admitRead("avatar", limits, T0 + 499)).ok).toBe(false);
    expect((await limiter.admitRead("avatar", limits, T0 + 500)).ok).toBe(true);
    expect((await limiter.admitRead("avatar", limits, T0 + 500)).ok).toBe(false);
    // 2 s later: 4 tokens.
    for (let i = 0; i < 4; i++) expect((await limiter.admitRead("avatar", limits, T0 + 2500)).ok).toBe(true);
    expect((await limiter.admitRead("avatar", limits, T0 + 2500)).ok).toBe(false);
    // The bucket never holds more than the burst.
    for (let i = 0; i < 5; i++) expect((await limiter.admitRead("avatar", limits, T0 + 3_600_000)).ok).toBe(true);
    expect((await limiter.admitRead("avatar", limits, T0 + 3_600_000)).ok).toBe(false);
  });

  it("per-minute cap: blocks even with tokens left, Retry-After until the oldest read leaves the minute", async () => {
    const limiter = fresh();
    const limits = { readsPerSecond: 20, readBurst: 40, readsPerMinute: 50 };
    for (let i = 0; i < 40; i++) expect((await limiter.admitRead("video", limits, T0)).ok).toBe(true);
    expect(await limiter.admitRead("video", limits, T0)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    for (let i = 0; i < 10; i++) expect((await limiter.admitRead("video", limits, T0 + 1000)).ok).toBe(true);
    const capped = await limiter.admitRead("video", limits, T0 + 1000);
    expect(capped).toMatchObject({ ok: false, retryAfterSeconds: 59, minute: { remaining: 0, resetSeconds: 60 } });
    expect(capped.burst.remaining).toBe(10);
    expect((await limiter.admitRead("video", limits, T0 + 59_999)).ok).toBe(false);
    // The 40 reads of T0 leave the window together.
    for (let i = 0; i < 40; i++) expect((await limiter.admitRead("video", limits, T0 + 60_000)).ok).toBe(true);
    expect((await limiter.admitRead("video", limits, T0 + 60_000)).ok).toBe(false);
  });

  it("of 60 parallel reads exactly the burst (40) is admitted", async () => {
    const limiter = fresh();
    const limits = { readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 };
    const results = await Promise.all(Array.from({ length: 60 }, () => limiter.admitRead("avatar", limits, T0)));
    expect(results.filter((r) => r.ok)).toHaveLength(40);
  });

  it("Avatar and video reads have separate buckets; refused reads consume nothing", async () => {
    const limiter = fresh();
    const limits = { readsPerSecond: 1, readBurst: 1, readsPerMinute: 10 };
    expect((await limiter.admitRead("avatar", limits, T0)).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect((await limiter.admitRead("avatar", limits, T0 + 500)).ok).toBe(false);
    expect((await limiter.admitRead("video", limits, T0)).ok).toBe(true);
    expect((await limiter.admitRead("avatar", limits, T0 + 1000)).ok).toBe(true);
  });

  it("a lowered limit applies at once", async () => {
    const limiter = fresh();
    for (let i = 0; i < 10; i++)
      await limiter.admitRead("avatar", { readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 }, T0);
    expect(
      (await limiter.admitRead("avatar", { readsPerSecond: 20, readBurst: 40, readsPerMinute: 5 }, T0 + 10)).ok,
    ).toBe(false);
    expect(
      (await limiter.admitRead("avatar", { readsPerSecond: 1, readBurst: 0, readsPerMinute: 1200 }, T0 + 10)).ok,
    ).toBe(false);
  });

  it("read state is snapshotted (at most once a second) and survives a restart", async () => {
    const name = `reads-durable-${crypto.randomUUID()}`;
    let limiter = env.ACCOUNT_LIMITER.getByName(name);
    const limits = { readsPerSecond: 2, readBurst: 5, readsPerMinute: 100 };
    for (let i = 0; i < 5; i++) await limiter.admitRead("avatar", limits, T0);
    expect((await limiter.admitRead("avatar", limits, T0 + 1000)).ok).toBe(true); // 2 refilled, 1 left; snapshot taken
    await evictAllDurableObjects();
    limiter = env.ACCOUNT_LIMITER.getByName(name);
    expect((await limiter.admitRead("avatar", limits, T0 + 1000)).ok).toBe(true);
    expect((await limiter.admitRead("avatar", limits, T0 + 1000)).ok).toBe(false);
  });

  it("after a crash at most the last second of reads is forgotten (the snapshot is what survives)", async () => {
    const name = `reads-snapshot-${crypto.randomUUID()}`;
    let limiter = env.ACCOUNT_LIMITER.getByName(name);
    const limits = { readsPerSecond: 2, readBurst: 5, readsPerMinute: 100 };
    for (let i = 0; i < 5; i++) await limiter.admitRead("avatar", limits, T0); // snapshot after the first: 4 tokens
    expect((await limiter.admitRead("avatar", limits, T0)).ok).toBe(false);
    await evictAllDurableObjects();
    limiter = env.ACCOUNT_LIMITER.getByName(name);
    const reads = [];
    for (let i = 0; i < 5; i++) reads.push((await limiter.admitRead("avatar", limits, T0)).ok);
    expect(reads).toEqual([true, true, true, true, false]);
  });
});

describe("readRateLimit middleware: RateLimit headers and 429", () => {
  it("a successful read carries RateLimit-Policy and RateLimit for the family's policies", async () => {
    const acc = await createAccount();
    const res = await probe("/v1/open/avatars", { headers: acc.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toBe('"burst";q=40;w=2, "minute";q=1200;w=60');
    expect(res.headers.get("RateLimit")).toBe('"burst";r=39;t=1, "minute";r=1199;t=60');
  });

  it("burst exhausted → 429 rate_limit_exceeded with Retry-After and the headers; the other family is unaffected", async () => {
    const acc = await createAccount({ limits: { avatar: { readsPerSecond: 1, readBurst: 3, readsPerMinute: 100 } } });
    for (let i = 0; i < 3; i++)
      expect((await probe("/v1/open/avatar-jobs", { headers: acc.headers })).status).toBe(200);
    const res = await probe("/v1/open/avatars", { headers: acc.headers });
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: { code: string; message: string; requestId: string } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toContain("Avatar read rate limit exceeded");
    expect(body.error.requestId).toBe(res.headers.get("X-Request-ID"));
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("RateLimit-Policy")).toBe('"burst";q=3;w=3, "minute";q=100;w=60');
    expect(res.headers.get("RateLimit")).toMatch(/^"burst";r=0;t=[1-3], "minute";r=97;t=60$/);
    // Video reads have their own bucket.
    const video = await probe("/v1/open/video-jobs", { headers: acc.headers });
    expect(video.status).toBe(200);
    expect(video.headers.get("RateLimit")).toMatch(/^"burst";r=39;/);
  });

  it("per-minute cap through the middleware", async () => {
    const acc = await createAccount({ limits: { video: { readsPerSecond: 20, readBurst: 40, readsPerMinute: 4 } } });
    for (let i = 0; i < 4; i++) expect((await probe("/v1/open/video-jobs", { headers: acc.headers })).status).toBe(200);
    const res = await probe("/v1/open/video-jobs", { headers: acc.headers });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(59);
    expect(res.headers.get("RateLimit")).toMatch(/"minute";r=0;t=60$/);
  });

  it("Apps of one account share the account's read limits", async () => {
    const acc = await createAccount({ limits: { avatar: { readsPerSecond: 1, readBurst: 2, readsPerMinute: 100 } } });
    const { createApp } = await import("../helpers/accounts");
    const other = await createApp(acc.accountId);
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await probe("/v1/open/avatars", { headers: other.headers })).status).toBe(200);
    expect((await probe("/v1/open/avatars", { headers: other.headers })).status).toBe(429);
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(429);
  });

  it("creation routes carry the family's RateLimit headers without counting a read", async () => {
    const acc = await createAccount({ limits: { avatar: { readsPerSecond: 1, readBurst: 3, readsPerMinute: 100 } } });
    for (let i = 0; i < 5; i++) {
      const res = await probe("/v1/open/avatars", { method: "POST", headers: acc.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Policy")).toBe('"burst";q=3;w=3, "minute";q=100;w=60');
      expect(res.headers.get("RateLimit")).toBe('"burst";r=3;t=0, "minute";r=100;t=0');
    }
    for (let i = 0; i < 3; i++) expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
    const post = await probe("/v1/open/avatars", { method: "POST", headers: acc.headers });
    expect(post.headers.get("RateLimit")).toMatch(/^"burst";r=0;t=[1-3], "minute";r=97;t=60$/);
  });
});

describe("on the real routes", () => {
  it("GET routes carry the headers and hit 429 after the burst; families are separate", async () => {
    const acc = await createAccount({ limits: { avatar: { readsPerSecond: 1, readBurst: 3, readsPerMinute: 100 } } });
    const first = await openFetch("/avatars", { headers: acc.headers });
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Policy")).toBe('"burst";q=3;w=3, "minute";q=100;w=60');
    expect(first.headers.get("RateLimit")).toMatch(/^"burst";r=2;t=1, "minute";r=99;t=60$/);
    // A 404 read is still a read.
    const missing = await openFetch(`/avatar-jobs/${crypto.randomUUID()}`, { headers: acc.headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("RateLimit")).toMatch(/^"burst";r=1;/);
    expect((await openFetch("/avatar-jobs", { headers: acc.headers })).status).toBe(200);
    const limited = await openFetch(`/avatars/${crypto.randomUUID()}`, { headers: acc.headers });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("RateLimit")).toMatch(/^"burst";r=0;/);
    const video = await openFetch("/video-jobs", { headers: acc.headers });
    expect(video.status).toBe(200);
    expect(video.headers.get("RateLimit-Policy")).toBe('"burst";q=40;w=2, "minute";q=1200;w=60');
  });

  it("creation (POST) is not read-limited", async () => {
    const acc = await createAccount({ limits: { avatar: { readsPerSecond: 1, readBurst: 1, readsPerMinute: 100 } } });
    for (let i = 0; i < 3; i++) {
      const res = await openFetch("/avatars", {
        headers: acc.headers,
        body: { imageUrl: "https://example.com/p.jpg" },
      });
      expect(res.status).toBe(200);
    }
    expect((await openFetch("/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await openFetch("/avatars", { headers: acc.headers })).status).toBe(429);
  });
});
