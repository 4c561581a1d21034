import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createApp, openFetch, type TestAccount } from "../helpers/accounts";
import { expectError, insertAvatarJob, json } from "../helpers/open-fixtures";

type Job = Record<string, unknown> & { id: string; status: string };

describe("Avatar creation jobs", () => {
  let a: TestAccount;
  const ids: Record<string, string> = {};
  const t0 = Date.now() - 60_000;
  beforeAll(async () => {
    a = await createAccount();
    ids.queued = await insertAvatarJob(a.accountId, { createdAt: new Date(t0) });
    ids.processing = await insertAvatarJob(a.accountId, { status: "processing", createdAt: new Date(t0 + 1000) });
    ids.succeeded = await insertAvatarJob(a.accountId, {
      status: "succeeded",
      avatarId: "5b1c0d7e-0000-4000-8000-000000000001",
      unitState: "captured",
      completedAt: new Date(t0 + 5000),
      createdAt: new Date(t0 + 2000),
    });
    ids.failed = await insertAvatarJob(a.accountId, {
      status: "failed",
      errorCode: "invalid_image",
      errorMessage: "The source image is not a supported opaque JPEG or PNG of sufficient size.",
      errorRetryable: false,
      unitState: "released",
      completedAt: new Date(t0 + 6000),
      createdAt: new Date(t0 + 3000),
    });
  });

  const get = async (id: string, who = a) =>
    (await json<{ job: Job }>(await openFetch(`/avatar-jobs/${id}`, { headers: who.headers }))).job;

  it("omits avatarId, completedAt and error while a job is not terminal", async () => {
    for (const id of [ids.queued!, ids.processing!]) {
      const job = await get(id);
      expect(Object.keys(job).sort()).toEqual(["createdAt", "id", "name", "status", "updatedAt"]);
    }
  });

  it("shows avatarId and completedAt once succeeded", async () => {
    const job = await get(ids.succeeded!);
    expect(job).toMatchObject({
      status: "succeeded",
      avatarId: "5b1c0d7e-0000-4000-8000-000000000001",
      completedAt: new Date(t0 + 5000).toISOString(),
    });
    expect(job).not.toHaveProperty("error");
  });

  it("shows error {code, message, retryable} on failure, and never the source URL or unit state", async () => {
    const job = await get(ids.failed!);
    expect(job.error).toEqual({
      code: "invalid_image",
      message: "The source image is not a supported opaque JPEG or PNG of sufficient size.",
      retryable: false,
    });
    expect(job).not.toHaveProperty("avatarId");
    expect(JSON.stringify(job)).not.toMatch(/secret-image|unitState|reserved|released|appId|accountId/);
  });

  it("lists newest first with totalCount", async () => {
    const body = await json<{ jobs: Job[]; pagination: { nextPageToken: string; totalCount: number } }>(
      await openFetch("/avatar-jobs", { headers: a.headers }),
    );
    expect(body.jobs.map((j) => j.id)).toEqual([ids.failed, ids.succeeded, ids.processing, ids.queued]);
    expect(body.pagination).toEqual({ nextPageToken: "", totalCount: 4 });
  });

  it("filters by repeated statuses", async () => {
    const body = await json<{ jobs: Job[]; pagination: { totalCount: number } }>(
      await openFetch("/avatar-jobs?statuses=queued&statuses=failed", { headers: a.headers }),
    );
    expect(body.jobs.map((j) => j.id)).toEqual([ids.failed, ids.queued]);
    expect(body.pagination.totalCount).toBe(2);
    const one = await json<{ jobs: Job[] }>(await openFetch("/avatar-jobs?statuses=succeeded", { headers: a.headers }));
    expect(one.jobs.map((j) => j.id)).toEqual([ids.succeeded]);
  });

  it("rejects an unknown status value (expired is not an Avatar job status)", async () => {
    await expectError(
      await openFetch("/avatar-jobs?statuses=done", { headers: a.headers }),
      400,
      "invalid_request",
      "statuses[0] must be one of queued, processing, succeeded, failed",
    );
    await expectError(
      await openFetch("/avatar-jobs?statuses=queued&statuses=expired", { headers: a.headers }),
      400,
      "invalid_request",
      "statuses[1]",
    );
  });

  it("another App of the same account reads the job; another account gets 404", async () => {
    const sibling = await createApp(a.accountId);
    expect((await get(ids.queued!, sibling)).id).toBe(ids.queued);
    const stranger = await createAccount();
    await expectError(await openFetch(`/avatar-jobs/${ids.queued}`, { headers: stranger.headers }), 404, "not_found");
    await expectError(await openFetch(`/avatar-jobs/${crypto.randomUUID()}`, { headers: a.headers }), 404, "not_found");
    const list = await json<{ jobs: Job[] }>(await openFetch("/avatar-jobs", { headers: stranger.headers }));
    expect(list.jobs).toEqual([]);
  });

  it("carries the Avatar family's RateLimit headers", async () => {
    const res = await openFetch("/avatar-jobs", { headers: a.headers });
    expect(res.headers.get("RateLimit-Policy")).toContain("burst");
    expect(res.headers.get("RateLimit")).toBeTruthy();
  });
});
