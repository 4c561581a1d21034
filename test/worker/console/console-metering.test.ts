import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIMIT_CEILINGS } from "../../../workers/accounts/limits";
import { consoleUploads, videoJobs } from "../../../workers/platform/db/schema";
import { createAccount } from "../helpers/accounts";
import { pngFile, signedIn } from "../helpers/console";
import { db, insertAvatar } from "../helpers/open-fixtures";

// Issue 24, points 1 and 5: the console's portrait check is metered before it runs, nothing a refused
// request stored is kept, and a double-submitted video form answers with its first job.

const portrait = () => pngFile(800, 800, "p.png");
const audio = (fill = 7) => new File([new Uint8Array(4096).fill(fill)], "a.wav", { type: "audio/wav" });
const uploadsOf = (accountId: string) =>
  db().select().from(consoleUploads).where(eq(consoleUploads.accountId, accountId));
const objectsOf = async (accountId: string) =>
  (await env.MEDIA.list({ prefix: `console-uploads/${accountId}/` })).objects.map((o) => o.key);
const videoForm = (avatarId: string, requestId: string, extra: Record<string, string | File> = {}) => ({
  avatarId,
  requestId,
  audio: audio(),
  width: "1024",
  height: "1024",
  // As the page sends them.
  fit: "crop",
  backgroundColor: "#000000",
  backgroundFit: "cover",
  leadInSeconds: "0",
  leadOutSeconds: "0",
  ...extra,
});

describe("console portrait check: metered before it runs", () => {
  it("an account with 0 Avatar Creations gets 402 before any check; nothing is stored", async () => {
    const a = await createAccount({ avatarUnits: 0 });
    const { client } = await signedIn(a.accountId);
    const res = await client.fetch("/console/avatars", { form: { portrait: portrait(), name: "x" } });
    expect(res.status).toBe(402);
    expect(await res.text()).toContain("No Avatar Creations left");
    expect(await uploadsOf(a.accountId)).toHaveLength(0);
    expect(await objectsOf(a.accountId)).toEqual([]);
  });

  it("the check takes a slot of the per-minute window like POST /avatar-checks; refused before anything is stored, with Retry-After", async () => {
    const a = await createAccount({ limits: { avatar: { perMinute: 2 } } });
    const { client } = await signedIn(a.accountId);
    expect((await client.fetch("/console/avatars", { form: { portrait: portrait(), name: "one" } })).status).toBe(303); // check + job
    const refused = await client.fetch("/console/avatars", { form: { portrait: portrait(), name: "two" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain("Image checks count toward this limit");
    expect(await uploadsOf(a.accountId)).toHaveLength(1);
  });

  it("each account has at most 2 checks in flight; another account is not affected; a finished check frees its slot", async () => {
    const limits = { ...LIMIT_CEILINGS.avatar };
    const one = env.ACCOUNT_LIMITER.getByName(`checks-${crypto.randomUUID()}`);
    const other = env.ACCOUNT_LIMITER.getByName(`checks-${crypto.randomUUID()}`);
    const now = Date.now();
    expect(await one.admitAvatarCheck("c1", limits, now)).toEqual({ ok: true });
    expect(await one.admitAvatarCheck("c2", limits, now)).toEqual({ ok: true });
    expect(await one.admitAvatarCheck("c3", limits, now)).toMatchObject({
      ok: false,
      code: "concurrency_limit_exceeded",
      retryAfterSeconds: 5,
    });
    expect(await other.admitAvatarCheck("c1", limits, now)).toEqual({ ok: true });
    await one.endAvatarCheck("c1");
    expect(await one.admitAvatarCheck("c3", limits, now)).toEqual({ ok: true });
    // A check that never reported back lapses after a minute.
    expect(await one.admitAvatarCheck("c4", limits, now + 60_000)).toEqual({ ok: true });
  });
});

describe("console video form: nothing kept past a refusal", () => {
  it("audio sent with a refused form (400, 403) is deleted at once: no row, no object", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const invalidForm = await client.fetch("/console/videos", {
      form: videoForm(await insertAvatar(a.accountId), crypto.randomUUID(), { width: "1023" }),
    });
    expect(invalidForm.status).toBe(400);
    const notMine = await client.fetch("/console/videos", {
      form: videoForm(crypto.randomUUID(), crypto.randomUUID()),
    });
    expect(notMine.status).toBe(403);
    expect(await uploadsOf(a.accountId)).toHaveLength(0);
    expect(await objectsOf(a.accountId)).toEqual([]);
  });

  it("a double-submitted form (same requestId, same file) answers with the first job and keeps one copy of the audio", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const requestId = crypto.randomUUID();
    expect((await client.fetch("/console/videos", { form: videoForm(avatarId, requestId) })).status).toBe(303);
    expect((await client.fetch("/console/videos", { form: videoForm(avatarId, requestId) })).status).toBe(303);
    const jobs = await db().select().from(videoJobs).where(eq(videoJobs.accountId, a.accountId));
    expect(jobs).toHaveLength(1);
    const kept = await uploadsOf(a.accountId);
    expect(kept).toHaveLength(1);
    expect(jobs[0]!.audioUrl).toContain(`/console/files/${kept[0]!.id}?`);
    expect(await objectsOf(a.accountId)).toEqual([kept[0]!.key]);
    // Different audio under the same requestId is still a conflict.
    expect(
      (await client.fetch("/console/videos", { form: videoForm(avatarId, requestId, { audio: audio(9) }) })).status,
    ).toBe(409);
    expect(await uploadsOf(a.accountId)).toHaveLength(1);
  });
});
