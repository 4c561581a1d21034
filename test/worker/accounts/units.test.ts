import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { reconcileAccount, reconcileRecentAccounts } from "../../../workers/accounts/reconcile/reconcile";
import { admissionError } from "../../../workers/accounts/admission";
import { LIMIT_CEILINGS } from "../../../workers/accounts/limits";
import { adminFetch, createAccount, getAccount } from "../helpers/accounts";

const limits = LIMIT_CEILINGS.avatar;
const id = () => crypto.randomUUID();
const MIN = 60_000;

async function accountWith(units: number) {
  const acc = await createAccount({ avatarUnits: units });
  return { ...acc, limiter: env.ACCOUNT_LIMITER.getByName(acc.accountId) };
}

/** A job row as the open routes / pipeline would have written it. */
async function insertJob(
  accountId: string,
  appId: string,
  jobId: string,
  status: string,
  unitState: string,
  at = Date.now(),
) {
  await env.DB.prepare(
    "insert into avatar_jobs (id, account_id, app_id, name, status, created_at, updated_at, image_url, unit_state) values (?, ?, ?, 'job', ?, ?, ?, 'https://example.com/a.png', ?)",
  )
    .bind(jobId, accountId, appId, status, at, at, unitState)
    .run();
}

describe("reserve, capture, release", () => {
  it("of 12 parallel admissions with 5 free units exactly 5 succeed, the rest are 402", async () => {
    const { limiter, accountId } = await accountWith(5);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => limiter.admitAvatarCreation(id(), { ...limits, concurrent: 10 }, Date.now())),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r).toMatchObject({ code: "insufficient_avatar_units" });
      expect(admissionError(r as Exclude<typeof r, { ok: true }>).status).toBe(402);
    }
    expect(refused[0].ok === false && refused[0].retryAfterSeconds).toBeFalsy();
    expect(await getAccount(accountId)).toMatchObject({
      avatarUnits: 5,
      reservedAvatarUnits: 5,
      availableAvatarUnits: 0,
    });
  });

  it("capture spends the unit exactly once, even when repeated in parallel", async () => {
    const { limiter, accountId } = await accountWith(3);
    const job = id();
    await limiter.admitAvatarCreation(job, limits, Date.now());
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.captureAvatarUnit(job)));
    expect(results.every((r) => r.state === "captured")).toBe(true);
    expect(await getAccount(accountId)).toMatchObject({ avatarUnits: 2, reservedAvatarUnits: 0 });
    // The job ends later: its slot frees, the captured unit stays spent.
    await Promise.all(Array.from({ length: 5 }, () => limiter.finishAvatarJob(job)));
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 2, reservedAvatarUnits: 0 });
    expect((await limiter.listOpenJobs()).active).toEqual([]);
  });

  it("a job failing before capture releases its unit exactly once; a late capture does not charge", async () => {
    const { limiter } = await accountWith(1);
    const job = id();
    expect((await limiter.admitAvatarCreation(job, limits, Date.now())).ok).toBe(true);
    expect(await limiter.admitAvatarCreation(id(), limits, Date.now())).toMatchObject({
      code: "insufficient_avatar_units",
    });
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.finishAvatarJob(job)));
    expect(results.every((r) => r.state === "released")).toBe(true);
    expect(await limiter.captureAvatarUnit(job)).toEqual({ state: "released" });
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 1, reservedAvatarUnits: 0 });
    expect((await limiter.admitAvatarCreation(id(), limits, Date.now())).ok).toBe(true);
  });

  it("unknown jobs: capture and finish are no-ops", async () => {
    const { limiter } = await accountWith(2);
    expect(await limiter.captureAvatarUnit(id())).toEqual({ state: null });
    expect(await limiter.finishAvatarJob(id())).toEqual({ state: null });
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 2, reservedAvatarUnits: 0 });
  });

  it("a storm of parallel, repeated captures and releases over 10 jobs ends exact", async () => {
    const { limiter, accountId } = await accountWith(10);
    const jobs = Array.from({ length: 10 }, id);
    await Promise.all(jobs.map((j) => limiter.admitAvatarCreation(j, { ...limits, concurrent: 10 }, Date.now())));
    const captured = jobs.slice(0, 6);
    const failed = jobs.slice(6);
    const calls = [
      ...captured.flatMap((j) => [
        limiter.captureAvatarUnit(j),
        limiter.captureAvatarUnit(j),
        limiter.captureAvatarUnit(j),
      ]),
      ...failed.flatMap((j) => [limiter.finishAvatarJob(j), limiter.finishAvatarJob(j), limiter.finishAvatarJob(j)]),
    ].sort(() => Math.random() - 0.5);
    await Promise.all(calls);
    expect(await getAccount(accountId)).toMatchObject({
      avatarUnits: 4,
      reservedAvatarUnits: 0,
      availableAvatarUnits: 4,
    });
    await Promise.all(captured.map((j) => limiter.finishAvatarJob(j)));
    expect(await limiter.getBalance()).toEqual({ avatarUnits: 4, reservedAvatarUnits: 0 });
    expect((await limiter.listOpenJobs()).active).toEqual([]);
  });

  it("the admin API shows the balance through a job's life", async () => {
    const { limiter, accountId } = await accountWith(2);
    const job = id();
    await limiter.admitAvatarCreation(job, limits, Date.now());
    expect(await getAccount(accountId)).toMatchObject({
      avatarUnits: 2,
      reservedAvatarUnits: 1,
      availableAvatarUnits: 1,
    });
    await limiter.captureAvatarUnit(job);
    expect(await getAccount(accountId)).toMatchObject({
      avatarUnits: 1,
      reservedAvatarUnits: 0,
      availableAvatarUnits: 1,
    });
  });
});

describe("reconcile against D1", () => {
  it("fixes drift: ended jobs leave the concurrency set; units follow D1; orphans are released after the grace period", async () => {
    const acc = await accountWith(10);
    const t = Date.now();
    const [failed, succeeded, processing, orphanOld, orphanNew, unknownActive] = Array.from({ length: 6 }, id);
    for (const j of [failed, succeeded, processing, orphanOld]) await acc.limiter.admitAvatarCreation(j, limits, t);
    await acc.limiter.admitAvatarCreation(orphanNew, limits, t + 9 * MIN);
    // D1 moved on while the limiter was not told (lost finish/capture calls).
    await insertJob(acc.accountId, acc.appId, failed, "failed", "reserved", t);
    await insertJob(acc.accountId, acc.appId, succeeded, "succeeded", "captured", t);
    await insertJob(acc.accountId, acc.appId, processing, "processing", "captured", t);
    await insertJob(acc.accountId, acc.appId, unknownActive, "queued", "reserved", t);

    const result = await reconcileAccount(env, acc.accountId, t + 10 * MIN);
    expect(result.deactivated.sort()).toEqual([failed, succeeded, orphanOld].sort());
    expect(result.activated).toEqual([unknownActive]);
    expect(result.captured.sort()).toEqual([succeeded, processing].sort());
    expect(result.released.sort()).toEqual([failed, orphanOld].sort());
    // 10 − 2 captured; orphanNew is still reserved (inside the grace period).
    expect(result.balance).toEqual({ avatarUnits: 8, reservedAvatarUnits: 1 });
    const open = await acc.limiter.listOpenJobs();
    expect(open.active.sort()).toEqual([processing, orphanNew, unknownActive].sort());
    expect(open.reserved).toEqual([orphanNew]);

    // Idempotent: a second run changes nothing.
    const again = await reconcileAccount(env, acc.accountId, t + 10 * MIN);
    expect(again).toMatchObject({
      deactivated: [],
      activated: [],
      captured: [],
      released: [],
      balance: result.balance,
    });
  });

  it("the admin reconcile route runs it and reports the balance", async () => {
    const acc = await accountWith(3);
    const job = id();
    await acc.limiter.admitAvatarCreation(job, limits, Date.now() - 10 * MIN);
    await insertJob(acc.accountId, acc.appId, job, "failed", "released");
    const res = await adminFetch(`/accounts/${acc.accountId}/reconcile`, { method: "POST" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      reconciled: { released: string[]; deactivated: string[] };
      account: { reservedAvatarUnits: number; avatarUnits: number };
    };
    expect(body.reconciled.released).toEqual([job]);
    expect(body.reconciled.deactivated).toEqual([job]);
    expect(body.account).toMatchObject({ avatarUnits: 3, reservedAvatarUnits: 0 });
    expect((await adminFetch(`/accounts/${id()}/reconcile`, { method: "POST" })).status).toBe(404);
  });

  it("reconcileRecentAccounts covers accounts with recent Avatar jobs", async () => {
    const acc = await accountWith(3);
    const job = id();
    await acc.limiter.admitAvatarCreation(job, limits, Date.now() - 10 * MIN);
    await insertJob(acc.accountId, acc.appId, job, "succeeded", "captured");
    expect(await reconcileRecentAccounts(env)).toBeGreaterThanOrEqual(1);
    expect(await acc.limiter.getBalance()).toEqual({ avatarUnits: 2, reservedAvatarUnits: 0 });
  });
});
