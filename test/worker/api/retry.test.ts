import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { videoJobs } from "../../../workers/platform/db/schema";
import { canonicalJson, videoFingerprint } from "../../../workers/api/idempotency/fingerprint";
import { normalizeVideoSettings } from "../../../workers/api/schemas/video-settings";
import { createAccount, createApp, openFetch, type TestAccount } from "../helpers/accounts";
import { db, expectError, insertAvatar, json, PUBLIC_AUDIO } from "../helpers/open-fixtures";

type Created = { jobId: string; status: string; createdAt: string };
const create = (a: TestAccount, body: Record<string, unknown>) => openFetch("/videos", { headers: a.headers, body });
const rowsFor = (requestId: string) => db().select().from(videoJobs).where(eq(videoJobs.requestId, requestId));

describe("retry keys (requestId)", () => {
  let a: TestAccount;
  let avatarId: string;
  beforeAll(async () => {
    // perMinute 1: any retry that counted would be refused, so a 200 proves it was not counted.
    a = await createAccount({ limits: { video: { perMinute: 1 } } });
    avatarId = await insertAvatar(a.accountId, { isPublic: true });
  });

  it("same requestId + same normalized input → the same job, original createdAt, counted nowhere", async () => {
    const requestId = crypto.randomUUID();
    const first = await json<Created>(
      await create(a, { avatarId, audioUrl: PUBLIC_AUDIO, requestId, video: { backgroundColor: "#AABBCC" } }),
    );
    // Omitted settings ≡ explicit defaults; colour case does not matter; key order does not matter.
    const variants = [
      { requestId, audioUrl: PUBLIC_AUDIO, avatarId, video: { backgroundColor: "#aabbcc" } },
      {
        avatarId,
        audioUrl: PUBLIC_AUDIO,
        requestId,
        video: {
          width: 1024,
          height: 1024,
          fit: "crop",
          backgroundColor: "#AaBbCc",
          backgroundFit: "cover",
          leadInSeconds: 0,
          leadOutSeconds: 0,
        },
      },
      {
        avatarId: avatarId.toUpperCase(),
        audioUrl: PUBLIC_AUDIO,
        requestId: requestId.toUpperCase(),
        video: { backgroundColor: "#aabbcc", leadInSeconds: 0.0 },
      },
    ];
    for (const body of variants) {
      const again = await json<Created>(await create(a, body));
      // The same job and createdAt; its status is the current one (the queue may have picked it up meanwhile).
      expect({ ...again, status: first.status }).toEqual(first);
      expect(["queued", "processing"]).toContain(again.status);
    }
    expect(await rowsFor(requestId)).toHaveLength(1);
    // The window was used once (by the first request): a different new job is now refused.
    await expectError(await create(a, { avatarId, audioUrl: PUBLIC_AUDIO }), 429, "rate_limit_exceeded");
  });

  it("returns the existing job's current status, even terminal", async () => {
    const b = await createAccount();
    const requestId = crypto.randomUUID();
    const body = { avatarId, audioUrl: PUBLIC_AUDIO, requestId };
    const first = await json<Created>(await create(b, body));
    await db()
      .update(videoJobs)
      .set({ status: "failed", errorCode: "render_failed", errorRetryable: true })
      .where(eq(videoJobs.id, first.jobId));
    const again = await json<Created>(await create(b, body));
    expect(again).toEqual({ jobId: first.jobId, status: "failed", createdAt: first.createdAt });
  });

  it("same requestId + different input → 409 conflict, whichever field differs", async () => {
    const b = await createAccount();
    const requestId = crypto.randomUUID();
    const base = { avatarId, audioUrl: PUBLIC_AUDIO, requestId };
    await json(await create(b, base));
    for (const changed of [
      { ...base, audioUrl: `${PUBLIC_AUDIO}?v=2` },
      { ...base, name: "Named now" },
      { ...base, backgroundUrl: "https://media.example.com/bg.png" },
      { ...base, video: { width: 1026 } },
      { ...base, video: { leadOutSeconds: 0.5 } },
    ]) {
      await expectError(
        await create(b, changed),
        409,
        "conflict",
        `requestId ${requestId} already identifies a different request`,
      );
    }
    expect(await rowsFor(requestId)).toHaveLength(1);
  });

  it("is shared by all Apps of the account", async () => {
    const b = await createAccount();
    const sibling = await createApp(b.accountId);
    const requestId = crypto.randomUUID();
    const first = await json<Created>(await create(b, { avatarId, audioUrl: PUBLIC_AUDIO, requestId }));
    expect(await json<Created>(await create(sibling, { avatarId, audioUrl: PUBLIC_AUDIO, requestId }))).toEqual(first);
    await expectError(await create(sibling, { avatarId, audioUrl: `${PUBLIC_AUDIO}#x`, requestId }), 409, "conflict");
  });

  it("is not shared across accounts", async () => {
    const b = await createAccount();
    const c = await createAccount();
    const requestId = crypto.randomUUID();
    const fromB = await json<Created>(await create(b, { avatarId, audioUrl: PUBLIC_AUDIO, requestId }));
    const fromC = await json<Created>(await create(c, { avatarId, audioUrl: `${PUBLIC_AUDIO}?other`, requestId }));
    expect(fromC.jobId).not.toBe(fromB.jobId);
    expect(await rowsFor(requestId)).toHaveLength(2);
  });

  it("20 concurrent requests with one new requestId create exactly one job and all get it", async () => {
    const b = await createAccount();
    const requestId = crypto.randomUUID();
    const body = { avatarId, audioUrl: PUBLIC_AUDIO, requestId, name: "Concurrent" };
    const results = await Promise.all(Array.from({ length: 20 }, () => create(b, body)));
    const bodies = await Promise.all(results.map((r) => json<Created>(r)));
    expect(new Set(bodies.map((x) => x.jobId)).size).toBe(1);
    expect(new Set(bodies.map((x) => x.createdAt)).size).toBe(1);
    expect(await rowsFor(requestId)).toHaveLength(1);
    expect(await db().select().from(videoJobs).where(eq(videoJobs.accountId, b.accountId))).toHaveLength(1);
  });

  it("20 concurrent requests with one requestId but different inputs: one job, the rest 409 or the same job", async () => {
    const b = await createAccount();
    const requestId = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(b, { avatarId, audioUrl: `${PUBLIC_AUDIO}?n=${i % 2}`, requestId })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(new Set(await Promise.all(ok.map(async (r) => ((await r.json()) as Created).jobId))).size).toBe(1);
    expect(await rowsFor(requestId)).toHaveLength(1);
  });

  it("requests without requestId always create new jobs", async () => {
    const b = await createAccount();
    const x = await json<Created>(await create(b, { avatarId, audioUrl: PUBLIC_AUDIO }));
    const y = await json<Created>(await create(b, { avatarId, audioUrl: PUBLIC_AUDIO }));
    expect(x.jobId).not.toBe(y.jobId);
  });
});

describe("fingerprint", () => {
  const input = {
    avatarId: "a",
    audioUrl: "u",
    backgroundUrl: null,
    name: null,
    settings: normalizeVideoSettings(undefined),
  };
  it("is independent of key order and sensitive to every field", async () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    const base = await videoFingerprint(input);
    expect(await videoFingerprint({ ...input, settings: normalizeVideoSettings({ backgroundColor: "#000000" }) })).toBe(
      base,
    );
    // A field present but undefined (a console form without it) is the same as an omitted one.
    expect(normalizeVideoSettings({ fit: undefined, backgroundColor: undefined, width: 640 })).toEqual(
      normalizeVideoSettings({ width: 640 }),
    );
    for (const other of [
      { ...input, avatarId: "b" },
      { ...input, audioUrl: "v" },
      { ...input, backgroundUrl: "w" },
      { ...input, name: "n" },
      { ...input, settings: normalizeVideoSettings({ fit: "contain" }) },
    ]) {
      expect(await videoFingerprint(other)).not.toBe(base);
    }
  });
});
