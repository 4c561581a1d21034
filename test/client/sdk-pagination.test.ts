import { describe, expect, it } from "vitest";
import { avatar, page, sdk, videoJob } from "./fixtures.js";
import { useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();

const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);

describe("lists", () => {
  it("follow nextPageToken with the same pageSize until it is empty", async () => {
    const [a, b, c] = ids(3);
    server.answer({ body: page("avatars", [avatar(a), avatar(b)], "t1") }, { body: page("avatars", [avatar(c)], "") });
    const got: string[] = [];
    for await (const item of sdk(server.url).avatars.list({ pageSize: 2 })) got.push(item.id);
    expect(got).toEqual([a, b, c]);
    expect(
      server.seen.map((r) => [r.path, r.query.get("pagination.pageSize"), r.query.get("pagination.pageToken")]),
    ).toEqual([
      ["/v1/open/avatars", "2", null],
      ["/v1/open/avatars", "2", "t1"],
    ]);
  });

  it("send the statuses filter on every page and fetch a page only when the items run out", async () => {
    const job = (id: string) => ({ ...videoJob("succeeded", "completed").job, id });
    server.answer({ body: page("jobs", ids(2).map(job), "t1") }, { body: page("jobs", [job("x")], "") });
    const got: string[] = [];
    for await (const item of sdk(server.url).videos.list({ statuses: ["succeeded", "failed"] })) {
      got.push(item.id);
      if (got.length === 1) break;
    }
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.query.getAll("statuses")).toEqual(["succeeded", "failed"]);
    expect(server.seen[0]?.query.has("pagination.pageSize")).toBe(false);

    server.reset();
    server.answer({ body: page("jobs", [], "t1") }, { body: page("jobs", [], "") });
    for await (const item of sdk(server.url).avatarJobs.list({ statuses: ["failed"], pageSize: 5 })) got.push(item.id);
    expect(
      server.seen.map((r) => [
        r.path,
        r.query.getAll("statuses"),
        r.query.get("pagination.pageSize"),
        r.query.get("pagination.pageToken"),
      ]),
    ).toEqual([
      ["/v1/open/avatar-jobs", ["failed"], "5", null],
      ["/v1/open/avatar-jobs", ["failed"], "5", "t1"],
    ]);
  });
});
