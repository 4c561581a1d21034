import { describe, expect, it } from "vitest";
import { createAccount, openFetch } from "../helpers/accounts";
import { insertAvatar, PUBLIC_AUDIO, PUBLIC_IMAGE } from "../helpers/open-fixtures";

/**
 * POST /avatars and POST /videos carry their family's RateLimit headers (docs/limits.md), on success and
 * on errors, without counting a read: the next read still starts from a full bucket.
 */
describe("RateLimit headers on the creation routes", () => {
  it("POST /avatars: the Avatar read family's headers, success and error, no read counted", async () => {
    const a = await createAccount({ limits: { avatar: { readBurst: 7, readsPerSecond: 1, readsPerMinute: 30 } } });
    const ok = await openFetch("/avatars", { headers: a.headers, body: { imageUrl: PUBLIC_IMAGE } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("RateLimit-Policy")).toBe('"burst";q=7;w=7, "minute";q=30;w=60');
    expect(ok.headers.get("RateLimit")).toMatch(/^"burst";r=7;t=\d+, "minute";r=30;t=\d+$/);
    const bad = await openFetch("/avatars", { headers: a.headers, body: { imageUrl: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("RateLimit")).toMatch(/^"burst";r=7;/);
    // The first read counts one token from the full bucket: the creations counted none.
    const read = await openFetch("/avatars", { headers: a.headers });
    expect(read.headers.get("RateLimit")).toMatch(/^"burst";r=6;t=\d+, "minute";r=29;/);
  });

  it("POST /videos: the video read family's headers", async () => {
    const a = await createAccount({ limits: { video: { readBurst: 9, readsPerSecond: 3, readsPerMinute: 90 } } });
    const avatarId = await insertAvatar(a.accountId);
    const res = await openFetch("/videos", { headers: a.headers, body: { avatarId, audioUrl: PUBLIC_AUDIO } });
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toBe('"burst";q=9;w=3, "minute";q=90;w=60');
    expect(res.headers.get("RateLimit")).toMatch(/^"burst";r=9;/);
  });

  // POST /videos takes the figures from its admission round trip; answers that end before it ask the limiter.
  it("POST /videos: headers on errors before and at admission, and no read counted", async () => {
    const a = await createAccount({
      limits: { video: { perMinute: 1, readBurst: 9, readsPerSecond: 3, readsPerMinute: 90 } },
    });
    const avatarId = await insertAvatar(a.accountId);
    const policy = '"burst";q=9;w=3, "minute";q=90;w=60';
    const bad = await openFetch("/videos", { headers: a.headers, body: { avatarId, audioUrl: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("RateLimit-Policy")).toBe(policy);
    expect(bad.headers.get("RateLimit")).toMatch(/^"burst";r=9;t=\d+, "minute";r=90;t=\d+$/);
    const denied = await openFetch("/videos", {
      headers: a.headers,
      body: { avatarId: crypto.randomUUID(), audioUrl: PUBLIC_AUDIO },
    });
    expect(denied.status).toBe(403);
    expect(denied.headers.get("RateLimit")).toMatch(/^"burst";r=9;/);
    const ok = await openFetch("/videos", { headers: a.headers, body: { avatarId, audioUrl: PUBLIC_AUDIO } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("RateLimit")).toMatch(/^"burst";r=9;t=\d+, "minute";r=90;t=\d+$/);
    const limited = await openFetch("/videos", { headers: a.headers, body: { avatarId, audioUrl: PUBLIC_AUDIO } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(limited.headers.get("RateLimit-Policy")).toBe(policy);
    expect(limited.headers.get("RateLimit")).toMatch(/^"burst";r=9;/);
    const read = await openFetch("/video-jobs", { headers: a.headers });
    expect(read.headers.get("RateLimit")).toMatch(/^"burst";r=8;t=\d+, "minute";r=89;/);
  });
});
