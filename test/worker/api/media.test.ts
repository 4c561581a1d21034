import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sign } from "../../../workers/platform/crypto/hmac";
import { videoKey } from "../../../workers/platform/storage/keys";
import { videoDownloadLink } from "../../../workers/platform/storage/links";
import { createAccount, createVideoJob, insertAvatar } from "../helpers/pipeline";
import { openFetch } from "../helpers/accounts";

const BYTES = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));

/** A succeeded job read through the API: its videoUrl (fetched without App headers). */
async function videoWithLink() {
  const acct = await createAccount();
  const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
  await env.DB.prepare(
    "update video_jobs set status = 'succeeded', stage = 'completed', output_key = ?, completed_at = ? where id = ?",
  )
    .bind(videoKey(jobId), Date.now(), jobId)
    .run();
  await env.MEDIA.put(videoKey(jobId), BYTES);
  const res = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { videoUrl: string; videoUrlExpiresAt: string; job: { status: string } };
  return { acct, jobId, ...body };
}

describe("GET /v1/media/videos/{jobId}.mp4", () => {
  it("a fresh link downloads the MP4 without App headers", async () => {
    const { videoUrl, videoUrlExpiresAt, job } = await videoWithLink();
    expect(job.status).toBe("succeeded");
    const left = Date.parse(videoUrlExpiresAt) - Date.now();
    expect(left).toBeGreaterThan(14 * 60_000);
    expect(left).toBeLessThanOrEqual(15 * 60_000);
    const res = await SELF.fetch(videoUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES);
    const head = await SELF.fetch(videoUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("1000");
  });

  it("supports Range requests as players send them (206, suffix ranges, 416)", async () => {
    const { videoUrl } = await videoWithLink();
    const part = await SELF.fetch(videoUrl, { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 10-19/1000");
    expect(part.headers.get("content-length")).toBe("10");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(BYTES.slice(10, 20));
    const open = await SELF.fetch(videoUrl, { headers: { Range: "bytes=990-" } });
    expect(open.status).toBe(206);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(BYTES.slice(990));
    const suffix = await SELF.fetch(videoUrl, { headers: { Range: "bytes=-5" } });
    expect(suffix.headers.get("content-range")).toBe("bytes 995-999/1000");
    const beyond = await SELF.fetch(videoUrl, { headers: { Range: "bytes=5000-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */1000");
    const multi = await SELF.fetch(videoUrl, { headers: { Range: "bytes=0-1,5-6" } });
    expect(multi.status).toBe(200);
    await multi.arrayBuffer();
  });

  it("a tampered signature or expiry, or the link of another job, is 403", async () => {
    const a = await videoWithLink();
    const b = await videoWithLink();
    const url = new URL(a.videoUrl);
    const sig = url.searchParams.get("sig")!;
    const withSig = new URL(url);
    withSig.searchParams.set("sig", sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A"));
    const withExp = new URL(url);
    withExp.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    const otherJob = new URL(url);
    otherJob.pathname = `/v1/media/videos/${b.jobId}.mp4`;
    for (const bad of [withSig, withExp, otherJob]) {
      const res = await SELF.fetch(bad.toString());
      expect(res.status).toBe(403);
      const body = (await res.json()) as { error: { code: string; requestId: string } };
      expect(body.error.code).toBe("forbidden");
      expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
    }
    const noSig = new URL(url);
    noSig.searchParams.delete("sig");
    expect((await SELF.fetch(noSig.toString())).status).toBe(403);
    expect(
      (await SELF.fetch(`http://x/v1/media/videos/${crypto.randomUUID()}.mp4?exp=9999999999&sig=${sig}`)).status,
    ).toBe(403);
  });

  it("a link signed for another account does not open the job", async () => {
    const a = await videoWithLink();
    const other = await createAccount();
    const exp = Math.floor(Date.now() / 1000) + 600;
    const forged = await sign(env.SIGNING_SECRET, `video-v1\nGET\n${videoKey(a.jobId)}\n${other.accountId}\n${exp}`);
    expect((await SELF.fetch(`http://x/v1/media/videos/${a.jobId}.mp4?exp=${exp}&sig=${forged}`)).status).toBe(403);
  });

  it("an expired link is 403 with a message saying so", async () => {
    const { jobId } = await videoWithLink();
    const row = await env.DB.prepare("select * from video_jobs where id = ?")
      .bind(jobId)
      .first<Record<string, unknown>>();
    const job = {
      id: jobId,
      accountId: row!.account_id,
      status: "succeeded",
      outputKey: videoKey(jobId),
      expiresAt: new Date(Number(row!.expires_at)),
    };
    const old = await videoDownloadLink(env, "http://x", job as never, Date.now() - 16 * 60_000);
    const res = await SELF.fetch(old.url);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it("after expiry the job has no link and an earlier link stops working", async () => {
    const { acct, jobId, videoUrl } = await videoWithLink();
    await env.DB.prepare("update video_jobs set status = 'expired', output_key = null where id = ?").bind(jobId).run();
    expect((await SELF.fetch(videoUrl)).status).toBe(404);
    const res = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.videoUrl).toBeUndefined();
    expect((body.job as { status: string }).status).toBe("expired");
  });
});
