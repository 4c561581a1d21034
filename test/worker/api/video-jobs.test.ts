import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { videoJobs } from "../../../workers/platform/db/schema";
import { createAccount, createApp, openFetch, type TestAccount } from "../helpers/accounts";
import { db, expectError, insertAvatar, insertVideoJob, json } from "../helpers/open-fixtures";

type Detail = { job: Record<string, unknown>; videoUrl?: string; videoUrlExpiresAt?: string };
const MIN = 60_000;
const DAY = 86_400_000;

describe("GET /video-jobs/{jobId}", () => {
  let a: TestAccount;
  let avatarId: string;
  beforeAll(async () => {
    a = await createAccount();
    avatarId = await insertAvatar(a.accountId);
  });
  const get = (id: string, who = a) => openFetch(`/video-jobs/${id}`, { headers: who.headers });

  it("a queued job: every field of the spec, no link, nothing internal", async () => {
    const id = await insertVideoJob(a.accountId, avatarId, {
      backgroundUrl: "https://media.example.com/secret-bg.png",
      requestId: crypto.randomUUID(),
    });
    const body = await json<Detail>(await get(id));
    expect(Object.keys(body)).toEqual(["job"]);
    expect(Object.keys(body.job).sort()).toEqual([
      "avatarId",
      "createdAt",
      "expiresAt",
      "id",
      "name",
      "progress",
      "status",
      "updatedAt",
    ]);
    expect(body.job).toMatchObject({ id, status: "queued", avatarId, progress: { stage: "queued" } });
    expect(JSON.stringify(body)).not.toMatch(/secret|fingerprint|requestId|outputKey|videos\/|appId|accountId|attempt/);
  });

  it("a succeeded job: a fresh 15-minute link that works without App headers", async () => {
    const jobId = crypto.randomUUID();
    const id = await insertVideoJob(a.accountId, avatarId, {
      id: jobId,
      status: "succeeded",
      stage: "completed",
      outputKey: `videos/${jobId}.mp4`,
      completedAt: new Date(),
    });
    const row = (await db().select().from(videoJobs).where(eq(videoJobs.id, id)).get())!;
    await env.MEDIA.put(row.outputKey!, new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]));
    const before = Date.now();
    const body = await json<Detail>(await get(id));
    expect(body.job).toMatchObject({ status: "succeeded", progress: { stage: "completed" } });
    expect(body.job.completedAt).toBeTruthy();
    expect(body.videoUrl).toMatch(/^http:\/\/x\//);
    expect(body.videoUrl).not.toContain(row.outputKey!.replace("videos/", "videos%2F"));
    const exp = Date.parse(body.videoUrlExpiresAt!);
    expect(exp).toBeGreaterThan(before + 14 * MIN);
    expect(exp).toBeLessThanOrEqual(before + 15 * MIN + 1000);
    const download = await SELF.fetch(body.videoUrl!);
    expect(download.status).toBe(200);
    // Refreshing the link does not extend retention.
    expect(body.job.expiresAt).toBe(row.expiresAt.toISOString());
  });

  it("caps the link at job.expiresAt", async () => {
    const expiresAt = new Date(Date.now() + 5 * MIN);
    const id = await insertVideoJob(a.accountId, avatarId, {
      status: "succeeded",
      stage: "completed",
      outputKey: `videos/${crypto.randomUUID()}.mp4`,
      createdAt: new Date(expiresAt.getTime() - 7 * DAY),
      expiresAt,
    });
    const row = (await db().select().from(videoJobs).where(eq(videoJobs.id, id)).get())!;
    await env.MEDIA.put(row.outputKey!, "mp4");
    const body = await json<Detail>(await get(id));
    expect(Date.parse(body.videoUrlExpiresAt!)).toBeLessThanOrEqual(expiresAt.getTime());
    expect(Date.parse(body.videoUrlExpiresAt!)).toBeGreaterThan(expiresAt.getTime() - 1000);
  });

  it("503 service_unavailable when the link cannot be produced; the job stays succeeded", async () => {
    const id = await insertVideoJob(a.accountId, avatarId, {
      status: "succeeded",
      stage: "completed",
      outputKey: "videos/missing.mp4",
    });
    await expectError(await get(id), 503, "service_unavailable");
    expect((await db().select().from(videoJobs).where(eq(videoJobs.id, id)).get())!.status).toBe("succeeded");
  });

  it("past its retention deadline a job reads as expired without a link, even before the sweep ran", async () => {
    const old = new Date(Date.now() - 8 * DAY);
    const id = await insertVideoJob(a.accountId, avatarId, {
      status: "succeeded",
      stage: "completed",
      outputKey: "videos/old.mp4",
      createdAt: old,
      expiresAt: new Date(old.getTime() + 7 * DAY),
      completedAt: old,
    });
    const body = await json<Detail>(await get(id));
    expect(body.job.status).toBe("expired");
    expect(body).not.toHaveProperty("videoUrl");
    expect(body).not.toHaveProperty("videoUrlExpiresAt");
    const stored = await insertVideoJob(a.accountId, avatarId, {
      status: "expired",
      stage: "completed",
      createdAt: old,
      expiresAt: new Date(old.getTime() + 7 * DAY),
    });
    expect((await json<Detail>(await get(stored))).job.status).toBe("expired");
  });

  it("a failed job shows error {code, message, retryable} and completedAt", async () => {
    const id = await insertVideoJob(a.accountId, avatarId, {
      status: "failed",
      stage: "preparing_media",
      errorCode: "source_unavailable",
      errorMessage: "The audio could not be downloaded.",
      errorRetryable: true,
      completedAt: new Date(),
    });
    const { job } = await json<Detail>(await get(id));
    expect(job.error).toEqual({
      code: "source_unavailable",
      message: "The audio could not be downloaded.",
      retryable: true,
    });
    expect(job.completedAt).toBeTruthy();
  });

  it("another App of the account reads it; another account gets 404", async () => {
    const id = await insertVideoJob(a.accountId, avatarId);
    const sibling = await createApp(a.accountId);
    await json(await get(id, sibling));
    const stranger = await createAccount();
    await expectError(await get(id, stranger), 404, "not_found");
    await expectError(await get(crypto.randomUUID()), 404, "not_found");
  });

  it("carries the video family's RateLimit headers", async () => {
    const res = await get(await insertVideoJob(a.accountId, avatarId));
    expect(res.headers.get("RateLimit-Policy")).toMatch(/"burst";q=\d+;w=\d+/);
    expect(res.headers.get("RateLimit")).toMatch(/"burst";r=\d+;t=\d+/);
  });
});

describe("GET /video-jobs", () => {
  let a: TestAccount;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    a = await createAccount();
    const av = await insertAvatar(a.accountId);
    const t = Date.now() - 10 * MIN;
    const at = (i: number) => new Date(t + i * 1000);
    ids.queued = await insertVideoJob(a.accountId, av, { createdAt: at(0) });
    ids.processing = await insertVideoJob(a.accountId, av, {
      status: "processing",
      stage: "rendering",
      createdAt: at(1),
    });
    ids.succeeded = await insertVideoJob(a.accountId, av, {
      status: "succeeded",
      stage: "completed",
      outputKey: "videos/s.mp4",
      createdAt: at(2),
    });
    ids.failed = await insertVideoJob(a.accountId, av, {
      status: "failed",
      errorCode: "render_failed",
      errorRetryable: true,
      createdAt: at(3),
    });
    ids.expired = await insertVideoJob(a.accountId, av, { status: "expired", createdAt: at(4) });
    // Stored as succeeded, but its retention ended: listed and filtered as expired.
    ids.lapsed = await insertVideoJob(a.accountId, av, {
      status: "succeeded",
      outputKey: "videos/l.mp4",
      createdAt: at(5),
      expiresAt: new Date(Date.now() - 1000),
    });
  });
  const list = (q = "") => openFetch(`/video-jobs${q}`, { headers: a.headers });

  it("answers {jobs, pagination}, newest first, summaries without links", async () => {
    const body = await json<{ jobs: Record<string, unknown>[]; pagination: unknown }>(await list());
    expect(Object.keys(body).sort()).toEqual(["jobs", "pagination"]);
    expect(body.jobs.map((j) => j.id)).toEqual([
      ids.lapsed,
      ids.expired,
      ids.failed,
      ids.succeeded,
      ids.processing,
      ids.queued,
    ]);
    expect(body.pagination).toEqual({ nextPageToken: "", totalCount: 6 });
    expect(JSON.stringify(body)).not.toMatch(/videoUrl|videos\//);
    expect(body.jobs[0]!.status).toBe("expired");
  });

  it("filters by repeated statuses, as readers see them", async () => {
    const ids1 = (await json<{ jobs: { id: string }[] }>(await list("?statuses=queued&statuses=processing"))).jobs.map(
      (j) => j.id,
    );
    expect(ids1).toEqual([ids.processing, ids.queued]);
    const expired = await json<{ jobs: { id: string }[]; pagination: { totalCount: number } }>(
      await list("?statuses=expired"),
    );
    expect(expired.jobs.map((j) => j.id)).toEqual([ids.lapsed, ids.expired]);
    expect(expired.pagination.totalCount).toBe(2);
    const succeeded = await json<{ jobs: { id: string }[] }>(await list("?statuses=succeeded"));
    expect(succeeded.jobs.map((j) => j.id)).toEqual([ids.succeeded]);
    const failed = await json<{ jobs: { id: string }[] }>(await list("?statuses=failed&statuses=failed"));
    expect(failed.jobs.map((j) => j.id)).toEqual([ids.failed]);
  });

  it("rejects an unknown status value", async () => {
    await expectError(
      await list("?statuses=done"),
      400,
      "invalid_request",
      "statuses[0] must be one of queued, processing, succeeded, failed, expired",
    );
    await expectError(await list("?statuses="), 400, "invalid_request", "statuses[0]");
  });

  it("another account sees none of them", async () => {
    const stranger = await createAccount();
    const body = await json<{ jobs: unknown[]; pagination: { totalCount: number } }>(
      await openFetch("/video-jobs", { headers: stranger.headers }),
    );
    expect(body.jobs).toEqual([]);
    expect(body.pagination.totalCount).toBe(0);
  });
});
