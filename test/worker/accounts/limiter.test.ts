import { env, evictAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Admission, admissionError } from "../../../workers/accounts/admission";
import { type AvatarLimits, LIMIT_CEILINGS, type VideoLimits } from "../../../workers/accounts/limits";
import { createAccount, openFetch } from "../helpers/accounts";
import { insertAvatar } from "../helpers/open-fixtures";

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);

const fresh = () => env.ACCOUNT_LIMITER.getByName(`test-${crypto.randomUUID()}`);
const avatarLimits = (o: Partial<AvatarLimits> = {}): AvatarLimits => ({ ...LIMIT_CEILINGS.avatar, ...o });
const videoLimits = (o: Partial<VideoLimits> = {}): VideoLimits => ({ ...LIMIT_CEILINGS.video, ...o });
const id = () => crypto.randomUUID();
const tally = (results: Admission[]) =>
  results.reduce<Record<string, number>>((acc, r) => {
    const k = r.ok ? "ok" : r.code;
    acc[k] = (acc[k] ?? 0) + 1;
    return acc;
  }, {});

async function withUnits(n: number) {
  const limiter = fresh();
  expect((await limiter.setAvatarUnits(n)).ok).toBe(true);
  return limiter;
}

describe("Avatar creation admission", () => {
  it("of 30 parallel admissions exactly `perMinute` succeed", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ perMinute: 7 });
    const results = await Promise.all(Array.from({ length: 30 }, () => limiter.admitAvatarCreation(id(), limits, T0)));
    expect(tally(results)).toEqual({ ok: 7, rate_limit_exceeded: 23 });
  });

  it("of 30 parallel admissions exactly `concurrent` succeed; the rest get concurrency_limit_exceeded with Retry-After", async () => {
    const limiter = await withUnits(100);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => limiter.admitAvatarCreation(id(), avatarLimits(), T0)),
    );
    expect(tally(results)).toEqual({ ok: 10, concurrency_limit_exceeded: 20 });
    const refused = results.find((r) => !r.ok)!;
    expect(refused).toMatchObject({ code: "concurrency_limit_exceeded" });
    expect(admissionError(refused as Exclude<Admission, { ok: true }>).status).toBe(429);
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it("a finished job frees its concurrency slot", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ concurrent: 2 });
    const [a, b] = [id(), id()];
    expect((await limiter.admitAvatarCreation(a, limits, T0)).ok).toBe(true);
    expect((await limiter.admitAvatarCreation(b, limits, T0)).ok).toBe(true);
    expect(await limiter.admitAvatarCreation(id(), limits, T0)).toMatchObject({
      ok: false,
      code: "concurrency_limit_exceeded",
    });
    await limiter.finishAvatarJob(a);
    await limiter.finishAvatarJob(a); // repeated: harmless
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(true);
    expect(await limiter.admitAvatarCreation(id(), limits, T0)).toMatchObject({
      ok: false,
      code: "concurrency_limit_exceeded",
    });
  });

  it("the same jobId admitted twice counts once (idempotent)", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ perMinute: 2 });
    const job = id();
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.admitAvatarCreation(job, limits, T0)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 100, reservedAvatarUnits: 1 });
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(true);
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(false);
  });

  it("a refused admission changes nothing (no count, no slot, no unit)", async () => {
    const limiter = await withUnits(1);
    const limits = avatarLimits({ perMinute: 1 });
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect((await limiter.admitAvatarCreation(id(), limits, T0 + 1)).ok).toBe(false);
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 1, reservedAvatarUnits: 1 });
    expect((await limiter.listOpenJobs()).active).toHaveLength(1);
  });

  it("checks in order: windows, then concurrency, then units", async () => {
    const limiter = await withUnits(0);
    const noUnits = await limiter.admitAvatarCreation(id(), avatarLimits(), T0);
    expect(noUnits).toMatchObject({ ok: false, code: "insufficient_avatar_units" });
    expect(admissionError(noUnits as Exclude<Admission, { ok: true }>).status).toBe(402);
    expect(await limiter.admitAvatarCreation(id(), avatarLimits({ concurrent: 0 }), T0)).toMatchObject({
      code: "concurrency_limit_exceeded",
    });
    expect(await limiter.admitAvatarCreation(id(), avatarLimits({ perMinute: 0, concurrent: 0 }), T0)).toMatchObject({
      code: "rate_limit_exceeded",
    });
  });
});

describe("creation windows (sliding logs, driven by `now`)", () => {
  it("per minute: a slot frees exactly 60 s after the admission that filled it; Retry-After counts down", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ perMinute: 2, concurrent: 10 });
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(true);
    expect((await limiter.admitAvatarCreation(id(), limits, T0 + 10 * SEC)).ok).toBe(true);
    const full = await limiter.admitAvatarCreation(id(), limits, T0 + 10 * SEC);
    expect(admissionError(full as Exclude<Admission, { ok: true }>).status).toBe(429);
    expect(full).toMatchObject({
      ok: false,
      code: "rate_limit_exceeded",
      retryAfterSeconds: 50,
      message: expect.stringContaining("2 per minute"),
    });
    expect(await limiter.admitAvatarCreation(id(), limits, T0 + 59_001)).toMatchObject({ retryAfterSeconds: 1 });
    expect(await limiter.admitAvatarCreation(id(), limits, T0 + MIN - 1)).toMatchObject({
      ok: false,
      retryAfterSeconds: 1,
    });
    expect((await limiter.admitAvatarCreation(id(), limits, T0 + MIN)).ok).toBe(true);
    // Full again: the next slot frees when the T0+10 s admission leaves.
    expect(await limiter.admitAvatarCreation(id(), limits, T0 + MIN)).toMatchObject({
      ok: false,
      retryAfterSeconds: 10,
    });
  });

  it("per hour and per rolling 24 hours", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ perMinute: 2, perHour: 3, perDay: 4, concurrent: 10 });
    const admit = (at: number) => limiter.admitAvatarCreation(id(), limits, at);
    expect((await admit(T0)).ok).toBe(true);
    expect((await admit(T0)).ok).toBe(true);
    expect((await admit(T0 + MIN)).ok).toBe(true);
    // The minute has room (1 of 2) but the hour is full (3 of 3): it admits again when the oldest T0 entry leaves.
    const hour = await admit(T0 + MIN + SEC);
    expect(hour).toMatchObject({ ok: false, code: "rate_limit_exceeded", retryAfterSeconds: (HOUR - MIN - SEC) / SEC });
    expect(hour.ok === false && hour.message).toContain("3 per hour");
    expect((await admit(T0 + HOUR)).ok).toBe(true); // 4th of the day
    const day = await admit(T0 + HOUR + SEC);
    expect(day).toMatchObject({ ok: false, code: "rate_limit_exceeded", retryAfterSeconds: (DAY - HOUR - SEC) / SEC });
    expect(day.ok === false && day.message).toContain("4 per rolling 24 hours");
    expect((await admit(T0 + DAY - 1)).ok).toBe(false);
    expect((await admit(T0 + DAY)).ok).toBe(true); // the two T0 entries left the 24 h window
    expect((await admit(T0 + DAY)).ok).toBe(true);
    expect((await admit(T0 + DAY)).ok).toBe(false); // minute: 2 of 2
  });

  it("when several windows block, Retry-After is the latest of them", async () => {
    const limiter = await withUnits(100);
    const limits = avatarLimits({ perMinute: 1, perHour: 1, concurrent: 10 });
    expect((await limiter.admitAvatarCreation(id(), limits, T0)).ok).toBe(true);
    expect(await limiter.admitAvatarCreation(id(), limits, T0 + SEC)).toMatchObject({
      retryAfterSeconds: HOUR / SEC - 1,
    });
  });

  it("a limit of 0 blocks with the window length as Retry-After", async () => {
    const limiter = await withUnits(100);
    expect(await limiter.admitAvatarCreation(id(), avatarLimits({ perMinute: 0 }), T0)).toMatchObject({
      retryAfterSeconds: 60,
    });
  });

  it("Avatar and video counters are independent", async () => {
    const limiter = await withUnits(100);
    const a = avatarLimits({ perMinute: 1 });
    const v = videoLimits({ perMinute: 1 });
    expect((await limiter.admitAvatarCreation(id(), a, T0)).ok).toBe(true);
    expect((await limiter.admitAvatarCreation(id(), a, T0)).ok).toBe(false);
    const claim = { jobId: id(), requestId: null, fingerprint: "f", createdAt: T0 };
    expect((await limiter.admitVideoCreation(claim, v, T0)).ok).toBe(true);
    expect((await limiter.admitVideoCreation({ ...claim, jobId: id() }, v, T0)).ok).toBe(false);
  });
});

describe("video creation admission and retry-key claims", () => {
  const claimOf = (requestId: string | null, fingerprint = "fp-1", at = T0) => ({
    jobId: id(),
    requestId,
    fingerprint,
    createdAt: at,
  });

  it("of 30 parallel video admissions exactly `perMinute` succeed", async () => {
    const limiter = fresh();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => limiter.admitVideoCreation(claimOf(null), videoLimits({ perMinute: 9 }), T0)),
    );
    expect(tally(results)).toEqual({ ok: 9, rate_limit_exceeded: 21 });
  });

  it("concurrent requests with one new requestId: exactly one claim, the others see it; counted once", async () => {
    const limiter = fresh();
    const requestId = id();
    const claims = Array.from({ length: 20 }, () => claimOf(requestId));
    const results = await Promise.all(
      claims.map((c) => limiter.admitVideoCreation(c, videoLimits({ perMinute: 2 }), T0)),
    );
    const winners = results.filter((r) => r.ok && !r.existing);
    expect(winners).toHaveLength(1);
    const winner = claims[results.indexOf(winners[0])];
    for (const r of results.filter((r) => r !== winners[0])) {
      expect(r).toEqual({ ok: true, existing: { jobId: winner.jobId, fingerprint: "fp-1", createdAt: T0 } });
    }
    // Counted once: one more new creation fits in the minute (2), then the window is full.
    expect((await limiter.admitVideoCreation(claimOf(null), videoLimits({ perMinute: 2 }), T0)).ok).toBe(true);
    expect((await limiter.admitVideoCreation(claimOf(null), videoLimits({ perMinute: 2 }), T0)).ok).toBe(false);
  });

  it("a retry returns the existing claim even when the windows are full, whatever the fingerprint", async () => {
    const limiter = fresh();
    const limits = videoLimits({ perMinute: 1 });
    const first = claimOf("req-a", "fp-1", T0);
    expect(await limiter.admitVideoCreation(first, limits, T0)).toEqual({ ok: true });
    expect((await limiter.admitVideoCreation(claimOf(null), limits, T0)).ok).toBe(false);
    const retry = await limiter.admitVideoCreation(claimOf("req-a", "fp-1", T0 + 5 * SEC), limits, T0 + 5 * SEC);
    expect(retry).toEqual({ ok: true, existing: { jobId: first.jobId, fingerprint: "fp-1", createdAt: T0 } });
    const different = await limiter.admitVideoCreation(claimOf("req-a", "fp-2"), limits, T0 + 6 * SEC);
    expect(different).toEqual({ ok: true, existing: { jobId: first.jobId, fingerprint: "fp-1", createdAt: T0 } });
  });

  it("a refused video admission records no claim", async () => {
    const limiter = fresh();
    const limits = videoLimits({ perMinute: 1 });
    expect((await limiter.admitVideoCreation(claimOf(null), limits, T0)).ok).toBe(true);
    const refused = claimOf("req-b");
    expect(await limiter.admitVideoCreation(refused, limits, T0)).toMatchObject({
      ok: false,
      code: "rate_limit_exceeded",
      retryAfterSeconds: 60,
    });
    const later = claimOf("req-b", "fp-1", T0 + MIN);
    expect(await limiter.admitVideoCreation(later, limits, T0 + MIN)).toEqual({ ok: true });
  });

  it("video per-day quota", async () => {
    const limiter = fresh();
    const limits = videoLimits({ perMinute: 20, perHour: 200, perDay: 3 });
    for (let i = 0; i < 3; i++)
      expect((await limiter.admitVideoCreation(claimOf(null), limits, T0 + i * HOUR)).ok).toBe(true);
    expect(await limiter.admitVideoCreation(claimOf(null), limits, T0 + 3 * HOUR)).toMatchObject({
      ok: false,
      retryAfterSeconds: (DAY - 3 * HOUR) / SEC,
    });
  });
});

describe("durability", () => {
  it("windows, concurrency, balance, reservations and claims survive a restart of the object", async () => {
    const name = `durable-${id()}`;
    let limiter = env.ACCOUNT_LIMITER.getByName(name);
    await limiter.setAvatarUnits(5);
    const limits = avatarLimits({ perMinute: 3, concurrent: 3 });
    const jobs = [id(), id(), id()];
    for (const j of jobs) expect((await limiter.admitAvatarCreation(j, limits, T0)).ok).toBe(true);
    await limiter.captureAvatarUnit(jobs[0]);
    const claim = { jobId: id(), requestId: "keep-me", fingerprint: "fp", createdAt: T0 };
    await limiter.admitVideoCreation(claim, videoLimits(), T0);

    await evictAllDurableObjects();
    limiter = env.ACCOUNT_LIMITER.getByName(name);

    expect(await limiter.getBalance()).toEqual({ avatarUnits: 4, reservedAvatarUnits: 2 });
    expect(await limiter.admitAvatarCreation(id(), avatarLimits({ perMinute: 10, concurrent: 3 }), T0)).toMatchObject({
      code: "concurrency_limit_exceeded",
    });
    expect(await limiter.admitAvatarCreation(id(), limits, T0)).toMatchObject({ code: "rate_limit_exceeded" });
    expect((await limiter.admitVideoCreation({ ...claim, jobId: id() }, videoLimits(), T0)).existing?.jobId).toBe(
      claim.jobId,
    );
    // Exactly-once survives too: capturing again does not charge again.
    await limiter.captureAvatarUnit(jobs[0]);
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 4, reservedAvatarUnits: 2 });
  });
});

describe("session tokens: single use at every instant", () => {
  it("a token used just before its expiry cannot be used again at the expiry instant (jti and exp checked in one call)", async () => {
    const limiter = fresh();
    const exp = Math.floor(T0 / SEC) + 60; // seconds, as in the token
    const jti = id();
    expect(await limiter.admitMotionConnection({ connectionId: id(), jti, exp }, exp * SEC - 1)).toMatchObject({
      ok: true,
    });
    await limiter.endMotionConnection("unrelated"); // the slot stays taken; reuse is what matters
    expect(await limiter.admitMotionConnection({ connectionId: id(), jti, exp }, exp * SEC)).toMatchObject({
      ok: false,
      code: "unauthorized",
    });
    expect(await limiter.admitMotionConnection({ connectionId: id(), jti, exp }, exp * SEC + 1)).toMatchObject({
      ok: false,
      code: "unauthorized",
    });
    expect((await limiter.motionStatus()).open).toBe(1);
  });

  it("an unused token is refused at exactly exp and admitted 1 ms before", async () => {
    const limiter = fresh();
    const exp = Math.floor(T0 / SEC) + 60;
    expect(await limiter.admitMotionConnection({ connectionId: id(), jti: id(), exp }, exp * SEC)).toMatchObject({
      ok: false,
      code: "unauthorized",
      message: expect.stringContaining("expired"),
    });
    expect(await limiter.admitMotionConnection({ connectionId: id(), jti: id(), exp }, exp * SEC - 1)).toMatchObject({
      ok: true,
    });
  });
});

describe("through the real creation routes", () => {
  it("30 parallel POST /avatars: exactly `concurrent` (10) accepted, the rest 429 concurrency_limit_exceeded", async () => {
    const acc = await createAccount({ avatarUnits: 100 });
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        openFetch("/avatars", { headers: acc.headers, body: { imageUrl: "https://example.com/p.jpg" } }),
      ),
    );
    const bodies = await Promise.all(results.map((r) => r.json() as Promise<{ error?: { code: string } }>));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(bodies.filter((b) => b.error?.code === "concurrency_limit_exceeded")).toHaveLength(20);
    for (const r of results.filter((r) => r.status === 429))
      expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    const rows = await env.DB.prepare("select count(*) as n from avatar_jobs where account_id = ?")
      .bind(acc.accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(10);
  });

  it("25 parallel POST /videos: exactly `perMinute` accepted, the rest 429 rate_limit_exceeded", async () => {
    const acc = await createAccount({ limits: { video: { perMinute: 6 } } });
    const avatarId = await insertAvatar(acc.accountId);
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        openFetch("/videos", {
          headers: acc.headers,
          body: { avatarId, audioUrl: "https://example.com/a.mp3", requestId: crypto.randomUUID() },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(19);
    const rows = await env.DB.prepare("select count(*) as n from video_jobs where account_id = ?")
      .bind(acc.accountId)
      .first<{ n: number }>();
    expect(rows!.n).toBe(6);
  });
});
