/**
 * Multipart upload of a job's output (issue 8, point 8): no request above 100 MiB; parts of the announced
 * size (5 MiB … 100 MiB) except the last; the same scope checks as a plain PUT (a stale attempt gets 409);
 * the completed object is whole and its video link works.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import { openFetch } from "../helpers/accounts";
import { createAccount, createVideoJob, insertAvatar, postEvent, startRun } from "../helpers/pipeline";

const MiB = 1024 * 1024;
type Call = {
  method: string;
  query?: string;
  body?: BodyInit;
  json?: unknown;
  kind?: "video" | "avatar";
  attempt?: number;
  token?: string;
};

async function videoRun(attempt = 5) {
  const acct = await createAccount();
  const avatarId = await insertAvatar(acct.accountId);
  const jobId = await createVideoJob(acct, avatarId);
  await startRun("video", jobId, attempt);
  const call = async (c: Call, key = videoKey(jobId)) => {
    const a = c.attempt ?? attempt;
    const bearer = c.token ?? (await jobToken(env, c.kind ?? "video", jobId, a));
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
    if (c.json !== undefined) headers["content-type"] = "application/json";
    return SELF.fetch(`http://x/internal/objects/${key}?job=${jobId}&attempt=${a}${c.query ?? ""}`, {
      method: c.method,
      headers,
      body: c.json !== undefined ? JSON.stringify(c.json) : c.body,
    });
  };
  return { acct, avatarId, jobId, call };
}

/** Bytes whose every position is distinguishable (a misplaced part would show). */
function pattern(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed + (i >> 12)) & 0xff;
  return b;
}

describe("multipart upload of a video", () => {
  it("three parts (5 MiB, 5 MiB, the rest) complete into one object; the video link serves it", async () => {
    const { acct, jobId, call } = await videoRun();
    const parts = [pattern(5 * MiB, 1), pattern(5 * MiB, 2), pattern(1234, 3)];
    const size = parts.reduce((s, p) => s + p.length, 0);
    const created = await call({ method: "POST", query: "&uploads", json: { size, partBytes: 5 * MiB } });
    expect(created.status).toBe(200);
    const { uploadId, parts: count } = (await created.json()) as { uploadId: string; parts: number };
    expect(count).toBe(3);
    const done: { partNumber: number; etag: string }[] = [];
    for (const [i, body] of parts.entries()) {
      const res = await call({ method: "PUT", query: `&uploadId=${uploadId}&partNumber=${i + 1}`, body });
      expect(res.status).toBe(200);
      done.push((await res.json()) as { partNumber: number; etag: string });
    }
    const complete = await call({ method: "POST", query: `&uploadId=${uploadId}`, json: { parts: done } });
    expect(await complete.json()).toEqual({ ok: true, key: videoKey(jobId), size });
    const stored = (await env.MEDIA.get(videoKey(jobId)))!;
    expect(stored.httpMetadata?.contentType).toBe("video/mp4");
    const bytes = new Uint8Array(await stored.arrayBuffer());
    expect(bytes.length).toBe(size);
    expect(bytes.subarray(5 * MiB - 4, 5 * MiB + 4)).toEqual(
      new Uint8Array([...parts[0].subarray(-4), ...parts[1].subarray(0, 4)]),
    );
    expect(bytes.subarray(-1234)).toEqual(parts[2]);

    await postEvent("video", jobId, 5, { type: "succeeded", result: { durationSeconds: 1 } });
    const detail = (await (await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers })).json()) as {
      videoUrl: string;
    };
    const download = await SELF.fetch(detail.videoUrl, { headers: { range: `bytes=${5 * MiB}-${5 * MiB + 9}` } });
    expect(download.status).toBe(206);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(parts[1].subarray(0, 10));
  });

  it("part sizes: announced part size 5 MiB … 100 MiB; each part exactly its planned length; part numbers in range", async () => {
    const { call } = await videoRun();
    const create = (json: unknown) => call({ method: "POST", query: "&uploads", json });
    for (const bad of [
      { size: 20 * MiB, partBytes: 5 * MiB - 1 },
      { size: 300 * MiB, partBytes: 100 * MiB + 1 },
      { size: 0, partBytes: 5 * MiB },
      { size: "1" },
    ]) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string; message: string } }).error.code).toBe("invalid_request");
    }
    expect((await create({ size: 5000 * MiB, partBytes: 100 * MiB })).status).toBe(413);
    const { uploadId } = (await (await create({ size: 5 * MiB + 10, partBytes: 5 * MiB })).json()) as {
      uploadId: string;
    };
    const part = (n: number, body: Uint8Array, id = uploadId) =>
      call({ method: "PUT", query: `&uploadId=${id}&partNumber=${n}`, body });
    const short = await part(1, new Uint8Array(5 * MiB - 1));
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: { message: string } }).error.message).toBe(
      `Part 1 of 2 must be ${5 * MiB} bytes (Content-Length is ${5 * MiB - 1}).`,
    );
    expect((await part(2, new Uint8Array(11))).status).toBe(400); // the last part holds exactly the rest
    expect((await part(3, new Uint8Array(10))).status).toBe(400);
    expect((await part(2, new Uint8Array(10))).status).toBe(200);
    // An upload id is signed: tampering with the plan inside it is refused.
    const [body, mac] = uploadId.split(".");
    expect((await part(2, new Uint8Array(10), `${body.slice(0, -2)}AA.${mac}`)).status).toBe(400);
    // Completing with a part missing is refused.
    const incomplete = await call({
      method: "POST",
      query: `&uploadId=${uploadId}`,
      json: { parts: [{ partNumber: 2, etag: "x" }] },
    });
    expect(incomplete.status).toBe(400);
    expect((await call({ method: "DELETE", query: `&uploadId=${uploadId}` })).status).toBe(200);
  });

  it("one plain PUT carries at most 100 MiB", async () => {
    const { call } = await videoRun();
    const big = new Uint8Array(100 * MiB + 1);
    const res = await call({ method: "PUT", body: big });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("use a multipart upload");
  });

  it("scope checks are the PUT's: another key 403, another kind's token 401, a stale attempt 409 at every step", async () => {
    const { avatarId, call } = await videoRun(5);
    const json = { size: 6 * MiB, partBytes: 5 * MiB };
    expect((await call({ method: "POST", query: "&uploads", json }, avatarKeys(avatarId).cover)).status).toBe(403);
    expect((await call({ method: "POST", query: "&uploads", json }, videoKey(crypto.randomUUID()))).status).toBe(403);
    expect(
      (
        await call({
          method: "POST",
          query: "&uploads",
          json,
          token: await jobToken(env, "avatar", crypto.randomUUID(), 5),
        })
      ).status,
    ).toBe(401);
    const { uploadId } = (await (await call({ method: "POST", query: "&uploads", json })).json()) as {
      uploadId: string;
    };
    // Attempt 4 is older than the run's attempt 5: every step answers 409.
    expect((await call({ method: "POST", query: "&uploads", json, attempt: 4 })).status).toBe(409);
    expect(
      (
        await call({
          method: "PUT",
          query: `&uploadId=${uploadId}&partNumber=1`,
          body: new Uint8Array(5 * MiB),
          attempt: 4,
        })
      ).status,
    ).toBe(409);
    expect(
      (await call({ method: "POST", query: `&uploadId=${uploadId}`, json: { parts: [] }, attempt: 4 })).status,
    ).toBe(409);
    expect((await call({ method: "DELETE", query: `&uploadId=${uploadId}`, attempt: 4 })).status).toBe(409);
    // POST/DELETE without a multipart query are refused with a clear message.
    expect((await call({ method: "POST", json: {} })).status).toBe(400);
    expect((await call({ method: "DELETE" })).status).toBe(400);
  });
});
