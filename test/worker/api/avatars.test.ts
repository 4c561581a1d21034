import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { avatarJobs } from "../../../workers/platform/db/schema";
import { createAccount, getAccount, openFetch, patchAccount, type TestAccount } from "../helpers/accounts";
import { db, expectError, insertAvatar, json, PUBLIC_IMAGE } from "../helpers/open-fixtures";

const create = (a: TestAccount, body: unknown = { imageUrl: PUBLIC_IMAGE }) =>
  openFetch("/avatars", { headers: a.headers, body });

describe("POST /avatars", () => {
  it("answers 200 {jobId, status: queued} and stores a queued job with a reserved unit", async () => {
    const a = await createAccount({ avatarUnits: 3 });
    const body = await json<{ jobId: string; status: string }>(
      await create(a, { imageUrl: PUBLIC_IMAGE, name: "Portrait" }),
    );
    expect(Object.keys(body).sort()).toEqual(["jobId", "status"]);
    expect(body.status).toBe("queued");
    const row = await db().select().from(avatarJobs).where(eq(avatarJobs.id, body.jobId)).get();
    expect(row).toMatchObject({
      accountId: a.accountId,
      appId: a.appId,
      name: "Portrait",
      imageUrl: PUBLIC_IMAGE,
      unitState: "reserved",
    });
    expect(["queued", "processing"]).toContain(row!.status); // the local queue consumer may already have picked it up
    expect((await getAccount(a.accountId)).reservedAvatarUnits).toBe(1);
  });

  it("derives a default name from the job ID", async () => {
    const a = await createAccount();
    const { jobId } = await json<{ jobId: string }>(await create(a));
    const { job } = await json<{ job: { name: string } }>(
      await openFetch(`/avatar-jobs/${jobId}`, { headers: a.headers }),
    );
    expect(job.name).toBe(`Avatar ${jobId.slice(0, 8)}`);
  });

  it("sends the job to the queue (the row is stamped enqueuedAt)", async () => {
    const a = await createAccount();
    const { jobId } = await json<{ jobId: string }>(await create(a));
    const row = await db().select().from(avatarJobs).where(eq(avatarJobs.id, jobId)).get();
    expect(row!.enqueuedAt).toBeInstanceOf(Date);
  });

  it("402 insufficient_avatar_units when no unit is free, and stores nothing", async () => {
    const a = await createAccount({ avatarUnits: 1 });
    await json(await create(a));
    await expectError(await create(a), 402, "insufficient_avatar_units");
    const rows = await db().select().from(avatarJobs).where(eq(avatarJobs.accountId, a.accountId));
    expect(rows).toHaveLength(1);
  });

  it("429 concurrency_limit_exceeded with Retry-After once queued+processing reach the limit", async () => {
    const a = await createAccount({ limits: { avatar: { concurrent: 2 } } });
    await json(await create(a));
    await json(await create(a));
    const res = await create(a);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, "concurrency_limit_exceeded");
  });

  it("429 rate_limit_exceeded with Retry-After over the per-minute limit", async () => {
    const a = await createAccount({ limits: { avatar: { perMinute: 1 } } });
    await json(await create(a));
    const res = await create(a);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, "rate_limit_exceeded");
  });

  it("admits exactly the free units under concurrency", async () => {
    const a = await createAccount({ avatarUnits: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, () => create(a)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(results.filter((r) => r.status === 402)).toHaveLength(6);
    const rows = await db().select().from(avatarJobs).where(eq(avatarJobs.accountId, a.accountId));
    expect(rows).toHaveLength(4);
  });

  it("403 when creation is disabled (reads keep working) or API access is not configured", async () => {
    const a = await createAccount({ avatarCreationEnabled: false });
    await expectError(await create(a), 403, "forbidden", "API Avatar creation is disabled");
    await json(await openFetch("/avatar-jobs", { headers: a.headers }));
    await json(await openFetch("/avatars", { headers: a.headers }));
    await patchAccount(a.accountId, { openApiAccess: false });
    await expectError(await create(a), 403, "forbidden", "Open API access is not configured");
    await expectError(
      await openFetch("/avatars", { headers: a.headers }),
      403,
      "forbidden",
      "Open API access is not configured",
    );
  });

  it("401 without valid credentials", async () => {
    const a = await createAccount();
    await expectError(
      await openFetch("/avatars", { body: { imageUrl: PUBLIC_IMAGE } }),
      401,
      "unauthorized",
      "Unauthorized.",
    );
    await expectError(
      await openFetch("/avatars", {
        headers: { ...a.headers, "X-API-Key": "wrong" },
        body: { imageUrl: PUBLIC_IMAGE },
      }),
      401,
      "unauthorized",
    );
  });
});

describe("GET /avatars and /avatars/{avatarId}", () => {
  let a: TestAccount;
  let other: TestAccount;
  let withBackground: string;
  let plain: string;
  beforeAll(async () => {
    a = await createAccount();
    other = await createAccount();
    plain = await insertAvatar(a.accountId, { createdAt: Date.now() - 2000, name: "Plain" });
    withBackground = await insertAvatar(a.accountId, {
      createdAt: Date.now() - 1000,
      backgroundKey: "avatars/x/background.jpg",
    });
    await insertAvatar(other.accountId, { isPublic: true }); // public, but not owned by `a`: not listed for it
  });

  it("lists the account's own Avatars (console ones included), newest first", async () => {
    const body = await json<{ avatars: { id: string }[]; pagination: { nextPageToken: string; totalCount: number } }>(
      await openFetch("/avatars", { headers: a.headers }),
    );
    expect(body.avatars.map((x) => x.id)).toEqual([withBackground, plain]);
    expect(body.pagination).toEqual({ nextPageToken: "", totalCount: 2 });
  });

  it("serializes id, name, absolute coverUrl, backgroundImageUrl only when set, timestamps; no storage keys", async () => {
    const { avatar } = await json<{ avatar: Record<string, string> }>(
      await openFetch(`/avatars/${plain}`, { headers: a.headers }),
    );
    expect(Object.keys(avatar).sort()).toEqual(["coverUrl", "createdAt", "id", "name", "updatedAt"]);
    expect(avatar.coverUrl).toMatch(/^http:\/\/x\/v1\/media\//);
    expect(new Date(avatar.createdAt).toISOString()).toBe(avatar.createdAt);
    const bg = (
      await json<{ avatar: Record<string, string> }>(
        await openFetch(`/avatars/${withBackground}`, { headers: a.headers }),
      )
    ).avatar;
    expect(bg.backgroundImageUrl).toMatch(/^http:\/\/x\/v1\/media\/.*background/);
    expect(JSON.stringify(bg)).not.toMatch(/portrait|rig\.json|origin|accountId|isPublic/);
  });

  it("the cover link works without App headers", async () => {
    await env.MEDIA.put(`avatars/${plain}/cover.jpg`, new Uint8Array([0xff, 0xd8, 0xff]));
    const { avatar } = await json<{ avatar: { coverUrl: string } }>(
      await openFetch(`/avatars/${plain}`, { headers: a.headers }),
    );
    const { SELF } = await import("cloudflare:test");
    const res = await SELF.fetch(avatar.coverUrl);
    expect(res.status).toBe(200);
  });

  it("404 for an unknown Avatar and for another account's Avatar", async () => {
    await expectError(await openFetch(`/avatars/${crypto.randomUUID()}`, { headers: a.headers }), 404, "not_found");
    await expectError(await openFetch(`/avatars/${plain}`, { headers: other.headers }), 404, "not_found");
  });

  it("accepts an upper-case UUID in the path", async () => {
    await json(await openFetch(`/avatars/${plain.toUpperCase()}`, { headers: a.headers }));
  });
});
