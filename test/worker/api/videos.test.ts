import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { videoJobs } from "../../../workers/platform/db/schema";
import { createAccount, openFetch, patchAccount, type TestAccount } from "../helpers/accounts";
import { db, expectError, grantAvatar, insertAvatar, json, PUBLIC_AUDIO } from "../helpers/open-fixtures";

const create = (a: TestAccount, body: Record<string, unknown>) => openFetch("/videos", { headers: a.headers, body });

describe("POST /videos", () => {
  let a: TestAccount;
  let owned: string;
  beforeAll(async () => {
    a = await createAccount();
    owned = await insertAvatar(a.accountId);
  });

  it("answers 200 {jobId, status: queued, createdAt} and stores the normalized job, expiring seven days later", async () => {
    const before = Date.now();
    const body = await json<{ jobId: string; status: string; createdAt: string }>(
      await create(a, {
        avatarId: owned,
        audioUrl: PUBLIC_AUDIO,
        backgroundUrl: "https://media.example.com/bg.webp",
        name: "Welcome",
        video: { width: 640, backgroundColor: "#ABCDEF" },
      }),
    );
    expect(Object.keys(body).sort()).toEqual(["createdAt", "jobId", "status"]);
    expect(body.status).toBe("queued");
    const createdAt = Date.parse(body.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1);
    const row = (await db().select().from(videoJobs).where(eq(videoJobs.id, body.jobId)).get())!;
    expect(row.createdAt.getTime()).toBe(createdAt);
    expect(row.expiresAt.getTime() - createdAt).toBe(7 * 24 * 3600 * 1000);
    expect(row).toMatchObject({
      accountId: a.accountId,
      appId: a.appId,
      name: "Welcome",
      avatarId: owned,
      stage: expect.any(String),
    });
    expect(row.settings).toEqual({
      width: 640,
      height: 1024,
      fit: "crop",
      backgroundColor: "#abcdef",
      backgroundFit: "cover",
      leadInSeconds: 0,
      leadOutSeconds: 0,
    });
    expect(row.enqueuedAt).toBeInstanceOf(Date);
  });

  it("derives the default name from the job ID", async () => {
    const { jobId } = await json<{ jobId: string }>(await create(a, { avatarId: owned, audioUrl: PUBLIC_AUDIO }));
    const { job } = await json<{ job: { name: string } }>(
      await openFetch(`/video-jobs/${jobId}`, { headers: a.headers }),
    );
    expect(job.name).toBe(`Video ${jobId.slice(0, 8)}`);
  });

  it("accepts public Avatars and Avatars explicitly allowed for the account", async () => {
    const owner = await createAccount();
    const pub = await insertAvatar(owner.accountId, { isPublic: true });
    const granted = await insertAvatar(owner.accountId);
    await grantAvatar(granted, a.accountId);
    await json(await create(a, { avatarId: pub, audioUrl: PUBLIC_AUDIO }));
    await json(await create(a, { avatarId: granted, audioUrl: PUBLIC_AUDIO }));
  });

  it("403 Avatar access denied for another account's private Avatar and for an unknown Avatar (same answer)", async () => {
    const owner = await createAccount();
    const priv = await insertAvatar(owner.accountId);
    const m1 = await expectError(
      await create(a, { avatarId: priv, audioUrl: PUBLIC_AUDIO }),
      403,
      "forbidden",
      "Avatar access denied",
    );
    const m2 = await expectError(
      await create(a, { avatarId: crypto.randomUUID(), audioUrl: PUBLIC_AUDIO }),
      403,
      "forbidden",
    );
    expect(m1).toBe(m2);
  });

  it("403 with the spec's messages when video access or creation is off; creation off keeps reads", async () => {
    const b = await createAccount();
    const av = await insertAvatar(b.accountId);
    const { jobId } = await json<{ jobId: string }>(await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }));
    await patchAccount(b.accountId, { videoCreationEnabled: false });
    await expectError(
      await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }),
      403,
      "forbidden",
      "reads remain available",
    );
    await json(await openFetch(`/video-jobs/${jobId}`, { headers: b.headers }));
    await json(await openFetch("/video-jobs", { headers: b.headers }));
    await patchAccount(b.accountId, { videoAccess: false });
    await expectError(
      await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }),
      403,
      "forbidden",
      "Video API access is not configured.",
    );
    await expectError(
      await openFetch(`/video-jobs/${jobId}`, { headers: b.headers }),
      403,
      "forbidden",
      "Video API access is not configured.",
    );
    await expectError(
      await openFetch("/video-jobs", { headers: b.headers }),
      403,
      "forbidden",
      "Video API access is not configured.",
    );
  });

  it("counts accepted jobs against the per-minute limit: 429 rate_limit_exceeded with Retry-After", async () => {
    const b = await createAccount({ limits: { video: { perMinute: 2 } } });
    const av = await insertAvatar(b.accountId);
    await json(await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }));
    await json(await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }));
    const res = await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, "rate_limit_exceeded");
  });

  it("video counters are independent of Avatar counters", async () => {
    const b = await createAccount({ limits: { avatar: { perMinute: 1 }, video: { perMinute: 1 } } });
    const av = await insertAvatar(b.accountId);
    await json(
      await openFetch("/avatars", { headers: b.headers, body: { imageUrl: "https://media.example.com/face.jpg" } }),
    );
    await json(await create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO }));
  });

  it("admits exactly perMinute of many parallel new jobs", async () => {
    const b = await createAccount({ limits: { video: { perMinute: 5 } } });
    const av = await insertAvatar(b.accountId);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => create(b, { avatarId: av, audioUrl: PUBLIC_AUDIO })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    expect(await db().select().from(videoJobs).where(eq(videoJobs.accountId, b.accountId))).toHaveLength(5);
  });
});
