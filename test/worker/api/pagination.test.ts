import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { decodePageToken, encodePageToken } from "../../../workers/api/pagination/token";
import { createAccount, createApp, openFetch, type TestAccount } from "../helpers/accounts";
import { expectError, insertAvatar, insertAvatarJob, insertVideoJob, json } from "../helpers/open-fixtures";

type Page = { jobs: { id: string }[]; pagination: { nextPageToken: string; totalCount: number } };
const q = (params: Record<string, string | string[]>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) s.append(k, x);
  return `?${s}`;
};

describe("pagination on GET /video-jobs", () => {
  let a: TestAccount;
  let avatarId: string;
  /** Newest first. */
  let all: string[] = [];
  let failedIds: string[] = [];
  const base = Date.now() - 3_600_000;
  beforeAll(async () => {
    a = await createAccount();
    avatarId = await insertAvatar(a.accountId);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      // Two jobs share each timestamp: the id breaks the tie.
      ids.push(
        await insertVideoJob(a.accountId, avatarId, {
          createdAt: new Date(base + Math.floor(i / 2) * 1000),
          status: i % 3 === 0 ? "failed" : "queued",
        }),
      );
    }
    const created = new Map(ids.map((id, i) => [id, base + Math.floor(i / 2) * 1000]));
    all = [...ids].sort((x, y) => created.get(y)! - created.get(x)! || (x < y ? 1 : -1));
    const failed = new Set(ids.filter((_, i) => i % 3 === 0));
    failedIds = all.filter((id) => failed.has(id));
  });
  const list = (params: Record<string, string | string[]> = {}, who = a) =>
    openFetch(`/video-jobs${q(params)}`, { headers: who.headers });

  async function walk(pageSize: string, extra: Record<string, string | string[]> = {}) {
    const seen: string[] = [];
    const sizes: number[] = [];
    let token = "";
    for (let i = 0; i < 50; i++) {
      const page = await json<Page>(
        await list({ ...extra, "pagination.pageSize": pageSize, ...(token ? { "pagination.pageToken": token } : {}) }),
      );
      seen.push(...page.jobs.map((j) => j.id));
      sizes.push(page.jobs.length);
      token = page.pagination.nextPageToken;
      if (!token) break;
    }
    return { seen, sizes };
  }

  it("defaults to 20 per page and counts every match", async () => {
    const page = await json<Page>(await list());
    expect(page.jobs).toHaveLength(20);
    expect(page.pagination.totalCount).toBe(25);
    expect(page.pagination.nextPageToken).not.toBe("");
  });

  it("walks every job exactly once, newest first, ending with an empty token", async () => {
    const { seen, sizes } = await walk("7");
    expect(sizes).toEqual([7, 7, 7, 4]);
    expect(seen).toEqual(all);
  });

  it("accepts 1 and 99; a value above 99 falls back to 20", async () => {
    expect((await json<Page>(await list({ "pagination.pageSize": "1" }))).jobs).toHaveLength(1);
    expect((await json<Page>(await list({ "pagination.pageSize": "99" }))).jobs).toHaveLength(25);
    expect((await json<Page>(await list({ "pagination.pageSize": "100" }))).jobs).toHaveLength(20);
    expect((await json<Page>(await list({ "pagination.pageSize": "100000000000000000000000" }))).jobs).toHaveLength(20);
  });

  it.each(["0", "-1", "-100", "1.5", "2e1", "abc", "", " 5", "0x10"])("rejects pageSize %j with 400", async (size) => {
    await expectError(
      await list({ "pagination.pageSize": size }),
      400,
      "invalid_request",
      "pagination.pageSize must be an integer from 1 to 99",
    );
  });

  it("a token is bound to its pageSize (an above-99 size means 20)", async () => {
    const first = await json<Page>(await list({ "pagination.pageSize": "5" }));
    const token = first.pagination.nextPageToken;
    await expectError(
      await list({ "pagination.pageSize": "6", "pagination.pageToken": token }),
      400,
      "invalid_request",
      "pagination.pageToken was issued for pagination.pageSize 5",
    );
    await expectError(
      await list({ "pagination.pageToken": token }),
      400,
      "invalid_request",
      "issued for pagination.pageSize 5, not 20",
    );
    const twenty = (await json<Page>(await list())).pagination.nextPageToken;
    const next = await json<Page>(await list({ "pagination.pageSize": "500", "pagination.pageToken": twenty }));
    expect(next.jobs.map((j) => j.id)).toEqual(all.slice(20));
  });

  it("a token is bound to its statuses filter (order and repetition do not matter)", async () => {
    const first = await json<Page>(await list({ statuses: ["queued", "failed"], "pagination.pageSize": "3" }));
    const token = first.pagination.nextPageToken;
    const same = await list({
      statuses: ["failed", "queued", "failed"],
      "pagination.pageSize": "3",
      "pagination.pageToken": token,
    });
    expect((await json<Page>(same)).jobs).toHaveLength(3);
    await expectError(
      await list({ statuses: "queued", "pagination.pageSize": "3", "pagination.pageToken": token }),
      400,
      "invalid_request",
      "different statuses filter",
    );
    await expectError(
      await list({ "pagination.pageSize": "3", "pagination.pageToken": token }),
      400,
      "invalid_request",
      "different statuses filter",
    );
  });

  it("filters with statuses across pages and counts only matches", async () => {
    const { seen } = await walk("2", { statuses: "failed" });
    expect(seen).toEqual(failedIds);
    expect(failedIds).toHaveLength(9);
    expect((await json<Page>(await list({ statuses: "failed" }))).pagination.totalCount).toBe(9);
  });

  it("rejects forged, truncated and garbage tokens", async () => {
    const token = (await json<Page>(await list({ "pagination.pageSize": "5" }))).pagination.nextPageToken;
    const [payload, mac] = token.split(".");
    const tampered = JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/")));
    tampered.s = 6; // claims another page size
    const forgedPayload = btoa(JSON.stringify(tampered)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    for (const bad of [
      `${forgedPayload}.${mac}`,
      `${payload}.${mac!.slice(0, -2)}AA`,
      token.slice(0, -1),
      "garbage",
      "a.b.c",
      btoa(JSON.stringify({ v: 1, s: 5, f: "", t: Date.now(), i: all[3] })),
    ]) {
      await expectError(
        await list({ "pagination.pageSize": "5", "pagination.pageToken": bad }),
        400,
        "invalid_request",
        "pagination.pageToken is invalid",
      );
    }
  });

  it("a token of another account or another list is invalid", async () => {
    const token = (await json<Page>(await list({ "pagination.pageSize": "5" }))).pagination.nextPageToken;
    const stranger = await createAccount();
    await expectError(
      await list({ "pagination.pageSize": "5", "pagination.pageToken": token }, stranger),
      400,
      "invalid_request",
      "is invalid",
    );
    await expectError(
      await openFetch(`/avatar-jobs${q({ "pagination.pageSize": "5", "pagination.pageToken": token })}`, {
        headers: a.headers,
      }),
      400,
      "invalid_request",
      "is invalid",
    );
    // Another App of the same account may continue the listing.
    const sibling = await createApp(a.accountId);
    await json(await list({ "pagination.pageSize": "5", "pagination.pageToken": token }, sibling));
  });

  it("an empty pageToken means the first page", async () => {
    const page = await json<Page>(await list({ "pagination.pageSize": "4", "pagination.pageToken": "" }));
    expect(page.jobs.map((j) => j.id)).toEqual(all.slice(0, 4));
  });

  it("stays correct while new jobs are inserted (keyset, not offset)", async () => {
    const b = await createAccount();
    const av = await insertAvatar(b.accountId);
    const t = Date.now() - 60_000;
    const original: string[] = [];
    for (let i = 0; i < 10; i++)
      original.unshift(await insertVideoJob(b.accountId, av, { createdAt: new Date(t + i * 1000) }));
    const page1 = await json<Page>(await list({ "pagination.pageSize": "4" }, b));
    expect(page1.jobs.map((j) => j.id)).toEqual(original.slice(0, 4));
    for (let i = 0; i < 3; i++) await insertVideoJob(b.accountId, av, { createdAt: new Date(Date.now() + i) });
    const page2 = await json<Page>(
      await list({ "pagination.pageSize": "4", "pagination.pageToken": page1.pagination.nextPageToken }, b),
    );
    expect(page2.jobs.map((j) => j.id)).toEqual(original.slice(4, 8));
    expect(page2.pagination.totalCount).toBe(13);
    const page3 = await json<Page>(
      await list({ "pagination.pageSize": "4", "pagination.pageToken": page2.pagination.nextPageToken }, b),
    );
    expect(page3.jobs.map((j) => j.id)).toEqual(original.slice(8));
    expect(page3.pagination.nextPageToken).toBe("");
  });

  it("an exact multiple of the page size ends with an empty token, not an empty page", async () => {
    const b = await createAccount();
    const av = await insertAvatar(b.accountId);
    for (let i = 0; i < 4; i++) await insertVideoJob(b.accountId, av, { createdAt: new Date(Date.now() - i * 1000) });
    const page = await json<Page>(await list({ "pagination.pageSize": "4" }, b));
    expect(page.jobs).toHaveLength(4);
    expect(page.pagination.nextPageToken).toBe("");
  });
});

describe("pagination on the other lists", () => {
  it("GET /avatar-jobs pages with a statuses filter", async () => {
    const a = await createAccount();
    for (let i = 0; i < 5; i++)
      await insertAvatarJob(a.accountId, {
        createdAt: new Date(Date.now() - i * 1000),
        status: i % 2 ? "failed" : "queued",
      });
    const p1 = await json<Page>(
      await openFetch(`/avatar-jobs${q({ statuses: "queued", "pagination.pageSize": "2" })}`, { headers: a.headers }),
    );
    expect(p1.jobs).toHaveLength(2);
    expect(p1.pagination.totalCount).toBe(3);
    const p2 = await json<Page>(
      await openFetch(
        `/avatar-jobs${q({ statuses: "queued", "pagination.pageSize": "2", "pagination.pageToken": p1.pagination.nextPageToken })}`,
        {
          headers: a.headers,
        },
      ),
    );
    expect(p2.jobs).toHaveLength(1);
    expect(p2.pagination.nextPageToken).toBe("");
    await expectError(
      await openFetch(
        `/avatar-jobs${q({ statuses: "failed", "pagination.pageSize": "2", "pagination.pageToken": p1.pagination.nextPageToken })}`,
        {
          headers: a.headers,
        },
      ),
      400,
      "invalid_request",
    );
  });

  it("GET /avatars pages and binds its tokens to the pageSize", async () => {
    const a = await createAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.unshift(await insertAvatar(a.accountId, { createdAt: Date.now() - (5 - i) * 1000 }));
    type AvatarPage = { avatars: { id: string }[]; pagination: Page["pagination"] };
    const p1 = await json<AvatarPage>(
      await openFetch(`/avatars${q({ "pagination.pageSize": "3" })}`, { headers: a.headers }),
    );
    expect(p1.avatars.map((x) => x.id)).toEqual(ids.slice(0, 3));
    expect(p1.pagination.totalCount).toBe(5);
    const p2 = await json<AvatarPage>(
      await openFetch(
        `/avatars${q({ "pagination.pageSize": "3", "pagination.pageToken": p1.pagination.nextPageToken })}`,
        { headers: a.headers },
      ),
    );
    expect(p2.avatars.map((x) => x.id)).toEqual(ids.slice(3));
    await expectError(
      await openFetch(
        `/avatars${q({ "pagination.pageSize": "2", "pagination.pageToken": p1.pagination.nextPageToken })}`,
        { headers: a.headers },
      ),
      400,
      "invalid_request",
      "issued for pagination.pageSize 3",
    );
  });
});

describe("page token codec", () => {
  const scope = { kind: "video-jobs" as const, accountId: "acct", pageSize: 10, filter: "" };
  it("round-trips a position and refuses a token signed with another secret", async () => {
    const token = await encodePageToken(env.SIGNING_SECRET, scope, { createdAt: 123, id: "abc" });
    expect(await decodePageToken(env.SIGNING_SECRET, scope, token)).toEqual({ createdAt: 123, id: "abc" });
    await expect(decodePageToken("another-secret", scope, token)).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    expect(token).not.toContain("acct");
  });
});
