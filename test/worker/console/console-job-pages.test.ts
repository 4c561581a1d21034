import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { avatarJobPage } from "../../../workers/console/job-pages";
import { createAccount, createAvatarJob } from "../helpers/pipeline";

describe("console job pages", () => {
  it('pages newest first; "Load older" links the next page, which holds exactly the rest', async () => {
    const acct = await createAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createAvatarJob(acct));
    const first = await avatarJobPage(env, acct.accountId, { pageSize: "2" });
    expect(first.jobs.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    expect(first.olderHref).toMatch(/^\/console\/avatars\?before=\d+_[0-9a-f-]{36}&pageSize=2$/);
    const before = new URL(first.olderHref!, "http://x").searchParams.get("before")!;
    const second = await avatarJobPage(env, acct.accountId, { before, pageSize: "2" });
    expect(second.jobs.map((j) => j.id)).toEqual([ids[0]]);
    expect(second.olderHref).toBeNull();
    // Defaults: 50 per page; a bad cursor is the first page.
    expect((await avatarJobPage(env, acct.accountId, { before: "x" })).jobs).toHaveLength(3);
  });
});
