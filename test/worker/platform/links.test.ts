import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";
import type { VideoJob } from "../../../workers/platform/db/schema";
import type { Env } from "../../../workers/platform/env";
import { ApiError } from "../../../workers/platform/http/errors";
import { sign, signSync, verify } from "../../../workers/platform/crypto/hmac";
import { avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import {
  AVATAR_LINK_API_MIN_SECONDS,
  AVATAR_LINK_PREVIEW_MAX_SECONDS,
  avatarBackgroundUrl,
  avatarCoverUrl,
  avatarLinkExpiry,
  checkAvatarMediaLink,
  VIDEO_LINK_TTL_MS,
  videoDownloadLink,
} from "../../../workers/platform/storage/links";
import { app } from "../../../workers/app";
import { adminFetch, openFetch, patchAccount } from "../helpers/accounts";
import { createAccount, createVideoJob, insertAvatar } from "../helpers/pipeline";

const BASE = "https://api.example.test";
const MIN = 60_000;

/** A succeeded video job with its MP4 in R2 (as the pipeline leaves it). */
async function succeededVideo(opts: { expiresInMs?: number; store?: boolean } = {}): Promise<VideoJob> {
  const acct = await createAccount();
  const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
  const expiresAt = Date.now() + (opts.expiresInMs ?? 7 * 24 * 60 * MIN);
  await env.DB.prepare(
    "update video_jobs set status = 'succeeded', stage = 'completed', output_key = ?, completed_at = ?, expires_at = ? where id = ?",
  )
    .bind(videoKey(jobId), Date.now(), expiresAt, jobId)
    .run();
  if (opts.store !== false)
    await env.MEDIA.put(videoKey(jobId), new Uint8Array(Array.from({ length: 100 }, (_, i) => i)));
  const row = await env.DB.prepare("select * from video_jobs where id = ?")
    .bind(jobId)
    .first<Record<string, number | string | null>>();
  return {
    id: jobId,
    accountId: String(row!.account_id),
    status: "succeeded",
    outputKey: videoKey(jobId),
    expiresAt: new Date(expiresAt),
  } as VideoJob;
}

describe("hmac", () => {
  it("sync and async signatures agree; verification is exact", async () => {
    const a = signSync(env.SIGNING_SECRET, "m");
    expect(await sign(env.SIGNING_SECRET, "m")).toBe(a);
    expect(await verify(env.SIGNING_SECRET, "m", a)).toBe(true);
    expect(await verify(env.SIGNING_SECRET, "n", a)).toBe(false);
    expect(await verify("other-secret", "m", a)).toBe(false);
    expect(await verify(env.SIGNING_SECRET, "m", a.slice(0, -2))).toBe(false);
    expect(await verify(env.SIGNING_SECRET, "m", "!!!")).toBe(false);
    expect(await verify(env.SIGNING_SECRET, "m", undefined)).toBe(false);
  });
});

describe("Avatar media links", () => {
  const forAccount = (accountId: string, use: "api" | "preview" = "api", now?: number) => ({ accountId, use, now });
  /** The Worker with D1 and R2 that fail on any use: proves a refusal read neither. */
  const withoutReads = async (url: string) => {
    const explode = () => {
      throw new Error("D1 or R2 was read");
    };
    const trap = new Proxy({}, { get: explode }) as never;
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(url), { ...env, DB: trap, MEDIA: trap }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("cover: absolute, header-free, bound to the Avatar, the account and an expiry; tampering is 403", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const url = avatarCoverUrl(
      env,
      "http://x",
      { id: avatarId, coverKey: avatarKeys(avatarId).cover },
      forAccount(acct.accountId),
    );
    expect(url).toMatch(
      new RegExp(
        `^http://x/v1/media/avatars/${avatarId}/cover\\.jpg\\?acct=${acct.accountId}&exp=\\d+&sig=s0\\.[A-Za-z0-9_-]{43}$`,
      ),
    );
    const ok = await SELF.fetch(url);
    expect(ok.status).toBe(200);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(new Uint8Array([255, 216, 255, 224]));

    const other = await insertAvatar(acct.accountId);
    const otherAccount = await createAccount();
    const exp = new URL(url).searchParams.get("exp")!;
    for (const bad of [
      url.replace(avatarId, other),
      url.slice(0, -1) + (url.endsWith("A") ? "B" : "A"),
      url.replace(`exp=${exp}`, `exp=${Number(exp) + 3600}`),
      url.replace(`acct=${acct.accountId}`, `acct=${otherAccount.accountId}`),
      url.replace("sig=s0.", "sig=k9."), // a key id the Worker does not hold
      url.split("?")[0]!,
      // The cover's signature does not open the Avatar's other objects (portrait, rig).
      url.replace("cover.jpg", "portrait.png"),
    ]) {
      const res = await withoutReads(bad);
      expect(res.status, bad).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
  });

  it("an expired link is 403 before any storage or D1 read", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const dayAgo = Date.now() - 26 * 60 * 60 * 1000;
    const old = avatarCoverUrl(
      env,
      "http://x",
      { id: avatarId, coverKey: "" },
      forAccount(acct.accountId, "api", dayAgo),
    );
    const res = await withoutReads(old);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    const preview = avatarCoverUrl(
      env,
      "http://x",
      { id: avatarId, coverKey: "" },
      forAccount(acct.accountId, "preview", Date.now() - 61 * 60 * 1000),
    );
    expect((await withoutReads(preview)).status).toBe(403);
  });

  it("lifetimes: an API read's links last at least 24 h, console previews at most 1 h", async () => {
    const now = Date.now();
    for (const t of [now, now + 1234, now + 59 * 60_000]) {
      const api = avatarLinkExpiry("api", t) - t / 1000;
      expect(api).toBeGreaterThanOrEqual(AVATAR_LINK_API_MIN_SECONDS - 1);
      expect(api).toBeLessThanOrEqual(AVATAR_LINK_API_MIN_SECONDS + 3600);
      const preview = avatarLinkExpiry("preview", t) - t / 1000;
      expect(preview).toBeLessThanOrEqual(AVATAR_LINK_PREVIEW_MAX_SECONDS);
      expect(preview).toBeGreaterThan(AVATAR_LINK_PREVIEW_MAX_SECONDS - 301);
    }
  });

  it("a deactivated account's links stop working; so do a grantee's once the grant is revoked", async () => {
    const owner = await createAccount();
    const grantee = await createAccount();
    const avatarId = await insertAvatar(owner.accountId);
    const own = avatarCoverUrl(env, "http://x", { id: avatarId, coverKey: "" }, forAccount(owner.accountId));
    const theirs = avatarCoverUrl(env, "http://x", { id: avatarId, coverKey: "" }, forAccount(grantee.accountId));
    expect((await SELF.fetch(theirs)).status).toBe(403); // never granted
    const access = (allowAccountIds: string[]) =>
      adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds } });
    expect((await access([grantee.accountId])).status).toBe(200);
    expect((await SELF.fetch(theirs)).status).toBe(200);
    expect((await access([])).status).toBe(200);
    const revoked = await SELF.fetch(theirs);
    expect(revoked.status).toBe(403);
    expect(((await revoked.json()) as { error: { message: string } }).error.message).toMatch(/lost access/);

    expect((await SELF.fetch(own)).status).toBe(200);
    await patchAccount(owner.accountId, { active: false });
    expect((await SELF.fetch(own)).status).toBe(403);
  });

  it("GET /avatars/{id} signs afresh for the reader: coverUrl valid for at least 24 h", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const res = await openFetch(`/avatars/${avatarId}`, { headers: acct.headers });
    const { avatar } = (await res.json()) as { avatar: { coverUrl: string } };
    const url = new URL(avatar.coverUrl);
    expect(url.searchParams.get("acct")).toBe(acct.accountId);
    expect(Number(url.searchParams.get("exp")) - Date.now() / 1000).toBeGreaterThanOrEqual(24 * 3600 - 5);
    expect((await SELF.fetch(avatar.coverUrl)).status).toBe(200);
  });

  it("background: absent when the Avatar has none; a working link when it has one", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId, { background: true });
    expect(
      avatarBackgroundUrl(env, BASE, { id: avatarId, backgroundKey: null }, forAccount(acct.accountId)),
    ).toBeUndefined();
    const url = avatarBackgroundUrl(
      env,
      "http://x",
      { id: avatarId, backgroundKey: `avatars/${avatarId}/background.png` },
      forAccount(acct.accountId),
    )!;
    expect((await SELF.fetch(url)).status).toBe(200);
  });

  it("key rotation: a new first key signs; links of a listed older key still open; a retired key's do not", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const avatar = { id: avatarId, coverKey: "" };
    const oldKey = { ...env, LINK_SIGNING_KEYS: `k1:${"a".repeat(32)}` };
    const both = { ...env, LINK_SIGNING_KEYS: `k2:${"b".repeat(32)},k1:${"a".repeat(32)}` };
    const newOnly = { ...env, LINK_SIGNING_KEYS: `k2:${"b".repeat(32)}` };
    const issued = avatarCoverUrl(oldKey, "http://x", avatar, forAccount(acct.accountId));
    const fresh = avatarCoverUrl(both, "http://x", avatar, forAccount(acct.accountId));
    expect(new URL(issued).searchParams.get("sig")).toMatch(/^k1\./);
    expect(new URL(fresh).searchParams.get("sig")).toMatch(/^k2\./);
    const query = (u: string) => Object.fromEntries(new URL(u).searchParams);
    const key = avatarKeys(avatarId).cover;
    expect((await checkAvatarMediaLink(both, key, query(issued))).ok).toBe(true);
    expect((await checkAvatarMediaLink(both, key, query(fresh))).ok).toBe(true);
    expect((await checkAvatarMediaLink(newOnly, key, query(issued))).ok).toBe(false);
    expect((await checkAvatarMediaLink(newOnly, key, query(fresh))).ok).toBe(true);
  });
});

describe("video download links", () => {
  it("15 minutes from now, signed over method + key + account + expiry", async () => {
    const job = await succeededVideo();
    const now = Date.now();
    const link = await videoDownloadLink(env, BASE, job, now);
    const expSec = Math.floor((now + VIDEO_LINK_TTL_MS) / 1000);
    expect(link.expiresAt.getTime()).toBe(expSec * 1000);
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/v1/media/videos/${job.id}.mp4`);
    expect(url.searchParams.get("exp")).toBe(String(expSec));
    expect(url.searchParams.get("acct")).toBe(job.accountId);
    const [keyId, mac] = url.searchParams.get("sig")!.split(".");
    expect(keyId).toBe("s0");
    expect(
      await verify(env.SIGNING_SECRET, `video-v1\nGET\n${videoKey(job.id)}\n${job.accountId}\n${expSec}`, mac),
    ).toBe(true);
  });

  it("capped by job.expiresAt: never outlives retention, refreshing never extends it", async () => {
    const job = await succeededVideo({ expiresInMs: 5 * MIN + 123 });
    const now = Date.now();
    const first = await videoDownloadLink(env, BASE, job, now);
    expect(first.expiresAt.getTime()).toBeLessThanOrEqual(job.expiresAt.getTime());
    expect(job.expiresAt.getTime() - first.expiresAt.getTime()).toBeLessThan(1000);
    const later = await videoDownloadLink(env, BASE, job, now + 2 * MIN);
    expect(later.expiresAt.getTime()).toBe(first.expiresAt.getTime());
  });

  it("503 service_unavailable when the object is missing, when retention is over, or when signing fails", async () => {
    const missing = await succeededVideo({ store: false });
    const err = await videoDownloadLink(env, BASE, missing, Date.now()).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: "service_unavailable" });

    const job = await succeededVideo();
    await expect(videoDownloadLink(env, BASE, job, job.expiresAt.getTime())).rejects.toMatchObject({ status: 503 });
    const noSecret: Env = { ...env, SIGNING_SECRET: "" };
    const brokenS3: Env = {
      ...env,
      R2_ACCESS_KEY_ID: "k",
      R2_SECRET_ACCESS_KEY: "s",
      R2_S3_ENDPOINT: "not a url",
      R2_BUCKET_NAME: "b",
    };
    await expect(videoDownloadLink(brokenS3, BASE, job, Date.now())).rejects.toMatchObject({ status: 503 });
    await expect(videoDownloadLink(noSecret, BASE, job, Date.now())).rejects.toMatchObject({ status: 503 });
  });

  it("GET /video-jobs/{id}: 503 when the link cannot be produced, and the job stays succeeded", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await env.DB.prepare(
      "update video_jobs set status = 'succeeded', stage = 'completed', output_key = ?, completed_at = ? where id = ?",
    )
      .bind(videoKey(jobId), Date.now(), jobId)
      .run();
    const res = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
    const row = await env.DB.prepare("select status from video_jobs where id = ?")
      .bind(jobId)
      .first<{ status: string }>();
    expect(row!.status).toBe("succeeded");
    // Once the object is there, the same read succeeds with a link.
    await env.MEDIA.put(videoKey(jobId), "mp4");
    const again = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
    expect(again.status).toBe(200);
    const body = (await again.json()) as { videoUrl: string; videoUrlExpiresAt: string };
    expect((await SELF.fetch(body.videoUrl)).status).toBe(200);
  });

  it("S3 adapter: with R2 credentials the link is a SigV4 presigned GET with the capped expiry", async () => {
    const s3Env: Env = {
      ...env,
      R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      R2_S3_ENDPOINT: "https://0123456789abcdef.r2.cloudflarestorage.com",
      R2_BUCKET_NAME: "avatar-video-media",
    };
    const job = await succeededVideo({ expiresInMs: 10 * MIN });
    const now = Date.parse("2026-11-21T10:00:00.500Z");
    const cappedJob = { ...job, expiresAt: new Date(now + 10 * MIN) } as VideoJob;
    const link = await videoDownloadLink(s3Env, BASE, cappedJob, now);
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(
      `https://0123456789abcdef.r2.cloudflarestorage.com/avatar-video-media/videos/${job.id}.mp4`,
    );
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Date")).toBe("20261121T100000Z");
    // 10 minutes (the cap) measured from the signing second, not 15.
    expect(url.searchParams.get("X-Amz-Expires")).toBe("600");
    expect(link.expiresAt.toISOString()).toBe("2026-11-21T10:10:00.000Z");
    expect(url.searchParams.get("X-Amz-Credential")).toBe("AKIDEXAMPLE/20261121/auto/s3/aws4_request");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    // An independent signer over the same request yields the same signature; another expiry does not.
    const resign = async (expires: string) => {
      const u = new URL(`${url.origin}${url.pathname}`);
      u.searchParams.set("X-Amz-Expires", expires);
      const signer = new AwsV4Signer({
        url: u.toString(),
        method: "GET",
        accessKeyId: "AKIDEXAMPLE",
        secretAccessKey: s3Env.R2_SECRET_ACCESS_KEY!,
        service: "s3",
        region: "auto",
        signQuery: true,
        datetime: "20261121T100000Z",
      });
      return new URL((await signer.sign()).url).searchParams.get("X-Amz-Signature");
    };
    expect(await resign("600")).toBe(url.searchParams.get("X-Amz-Signature"));
    expect(await resign("900")).not.toBe(url.searchParams.get("X-Amz-Signature"));
  });
});
