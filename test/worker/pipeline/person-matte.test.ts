/**
 * Issue 21 on the Worker side: video.replaceBackground and video.alpha (validation, normalization for retry
 * keys), the matte and the WebM in the renderer contract (dispatch, object scopes, success), alphaVideoUrl
 * under the rules of videoUrl, and the WebM kept and deleted with the MP4.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { normalizeVideoSettings } from "../../../workers/api/schemas/video-settings";
import { avatarIdForJob } from "../../../workers/pipeline/jobs/avatar-id";
import { expireVideoJob } from "../../../workers/pipeline/jobs/expiry";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { deleteFailedJobOutputs } from "../../../workers/pipeline/jobs/outputs";
import { avatarPayload, videoPayload } from "../../../workers/pipeline/renderer/payload";
import { videoJobs, avatarJobs } from "../../../workers/platform/db/schema";
import { alphaVideoKey, avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import { eq } from "drizzle-orm";
import { signedRigUrl } from "../../../workers/motion/rig-links";
import { openFetch } from "../helpers/accounts";
import { readyAvatar } from "../helpers/motion";
import { db, expectError, insertVideoJob, json, PUBLIC_AUDIO } from "../helpers/open-fixtures";
import {
  createAccount,
  createAvatarJob,
  createVideoJob,
  insertAvatar,
  jobRow,
  objectRequest,
  postEvent,
  startRun,
} from "../helpers/pipeline";

type Detail = {
  job: Record<string, unknown>;
  videoUrl?: string;
  videoUrlExpiresAt?: string;
  alphaVideoUrl?: string;
  alphaVideoUrlExpiresAt?: string;
};

describe("video.replaceBackground and video.alpha in POST /videos", () => {
  it("a non-boolean is 400 invalid_request naming the field", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    for (const [video, message] of [
      [{ alpha: "yes" }, "video.alpha must be a boolean"],
      [{ alpha: 1 }, "video.alpha must be a boolean"],
      [{ replaceBackground: null }, "video.replaceBackground must be a boolean"],
      [{ replaceBackground: "true" }, "video.replaceBackground must be a boolean"],
    ] as const) {
      await expectError(
        await openFetch("/videos", { headers: acct.headers, body: { avatarId, audioUrl: PUBLIC_AUDIO, video } }),
        400,
        "invalid_request",
        message,
      );
    }
  });

  it("false and omitted are the same normalized input (stored and retry key); true is another", async () => {
    expect(normalizeVideoSettings({ alpha: false, replaceBackground: false })).toEqual(
      normalizeVideoSettings(undefined),
    );
    expect(normalizeVideoSettings({ alpha: true })).toMatchObject({ alpha: true });
    expect(normalizeVideoSettings({ replaceBackground: true })).not.toHaveProperty("alpha");

    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId, { isPublic: true });
    const requestId = crypto.randomUUID();
    const create = (video?: object) =>
      openFetch("/videos", {
        headers: acct.headers,
        body: { avatarId, audioUrl: PUBLIC_AUDIO, requestId, ...(video ? { video } : {}) },
      });
    const first = await json<{ jobId: string }>(await create());
    for (const video of [{ alpha: false }, { replaceBackground: false }, { alpha: false, replaceBackground: false }]) {
      expect((await json<{ jobId: string }>(await create(video))).jobId).toBe(first.jobId);
    }
    for (const video of [{ alpha: true }, { replaceBackground: true }]) {
      await expectError(await create(video), 409, "conflict");
    }
    const row = await db().select().from(videoJobs).where(eq(videoJobs.id, first.jobId)).get();
    expect(row!.settings).not.toHaveProperty("alpha");
    expect(row!.settings).not.toHaveProperty("replaceBackground");
  });
});

describe("the renderer contract", () => {
  it("an Avatar dispatch names where its matte goes; a video dispatch where the matte is read and stored, and the WebM only with alpha", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const avatarJob = (await db().select().from(avatarJobs).where(eq(avatarJobs.id, jobId)).get())!;
    const avatar = await avatarPayload(env, avatarJob, 1);
    expect(avatar.outputs.matte).toContain(`/internal/objects/${avatarKeys(await avatarIdForJob(jobId)).matte}?`);

    const avatarId = await insertAvatar(acct.accountId);
    const plain = await insertVideoJob(acct.accountId, avatarId);
    const alpha = await insertVideoJob(acct.accountId, avatarId, { settings: normalizeVideoSettings({ alpha: true }) });
    const [p, a] = await Promise.all(
      [plain, alpha].map(async (id) =>
        videoPayload(env, (await db().select().from(videoJobs).where(eq(videoJobs.id, id)).get())!, 1),
      ),
    );
    const matte = `/internal/objects/${avatarKeys(avatarId).matte}?`;
    expect(p!.avatar.matte).toContain(matte);
    expect(p!.outputs.matte).toContain(matte);
    expect(p!.outputs.alphaVideo).toBeUndefined();
    expect(a!.settings.alpha).toBe(true);
    expect(a!.outputs.alphaVideo).toContain(`/internal/objects/${alphaVideoKey(alpha)}?`);
  });

  it("object scopes: an Avatar run stores its matte; a video run its Avatar's matte, and its WebM only with alpha", async () => {
    const acct = await createAccount();
    const avatarJob = await createAvatarJob(acct);
    await startRun("avatar", avatarJob, 5);
    expect(
      (
        await objectRequest(
          "avatar",
          avatarJob,
          5,
          "PUT",
          avatarKeys(await avatarIdForJob(avatarJob)).matte,
          new Uint8Array([137, 80]),
        )
      ).status,
    ).toBe(200);

    const avatarId = await insertAvatar(acct.accountId);
    const other = await insertAvatar(acct.accountId);
    const plain = await createVideoJob(acct, avatarId);
    const alpha = await createVideoJob(acct, avatarId, { video: { alpha: true } });
    await startRun("video", plain, 5);
    await startRun("video", alpha, 5);
    expect(
      (await objectRequest("video", plain, 5, "PUT", avatarKeys(avatarId).matte, new Uint8Array([137, 80]))).status,
    ).toBe(200);
    expect((await env.MEDIA.head(avatarKeys(avatarId).matte))!.httpMetadata?.contentType).toBe("image/png");
    expect((await objectRequest("video", plain, 5, "PUT", avatarKeys(other).matte, "x")).status).toBe(403);
    expect((await objectRequest("video", plain, 5, "PUT", alphaVideoKey(plain), "webm")).status).toBe(403);
    expect((await objectRequest("video", alpha, 5, "PUT", alphaVideoKey(alpha), "webm")).status).toBe(200);
    expect((await env.MEDIA.head(alphaVideoKey(alpha)))!.httpMetadata?.contentType).toBe("video/webm");
  });

  it("a video run adds its Avatar's matte only where none exists: an existing matte is never replaced", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const first = await createVideoJob(acct, avatarId);
    const second = await createVideoJob(acct, avatarId);
    await startRun("video", first, 5);
    await startRun("video", second, 5);
    const key = avatarKeys(avatarId).matte;
    expect((await objectRequest("video", first, 5, "PUT", key, new Uint8Array([137, 80, 1]))).status).toBe(200);
    const again = await objectRequest("video", second, 5, "PUT", key, new Uint8Array([137, 80, 2, 2]));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ok: true, kept: "existing" });
    expect(new Uint8Array(await (await env.MEDIA.get(key))!.arrayBuffer())).toEqual(new Uint8Array([137, 80, 1]));
    // No way around it through a multipart upload.
    const multipart = await SELF.fetch(`http://x/internal/objects/${key}?job=${second}&attempt=5&uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${await jobToken(env, "video", second, 5)}` },
    });
    expect(multipart.status).toBe(403);
  });

  it("an alpha job succeeds only with both files stored; without the WebM it fails render_failed", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const ok = await createVideoJob(acct, avatarId, { video: { alpha: true } });
    const lost = await createVideoJob(acct, avatarId, { video: { alpha: true } });
    for (const id of [ok, lost]) {
      await startRun("video", id, 5);
      await objectRequest("video", id, 5, "PUT", videoKey(id), new Uint8Array(64));
    }
    await objectRequest("video", ok, 5, "PUT", alphaVideoKey(ok), new Uint8Array(64));
    await postEvent("video", ok, 5, { type: "succeeded", result: {} });
    await postEvent("video", lost, 5, { type: "succeeded", result: {} });
    expect(await jobRow("video", ok)).toMatchObject({ status: "succeeded", output_key: videoKey(ok) });
    expect(await jobRow("video", lost)).toMatchObject({ status: "failed", error_code: "render_failed" });
  });
});

describe("alphaVideoUrl", () => {
  async function succeeded(accountId: string, avatarId: string, alpha: boolean, stored = true, expiresAt?: Date) {
    const id = crypto.randomUUID();
    await insertVideoJob(accountId, avatarId, {
      id,
      status: "succeeded",
      stage: "completed",
      outputKey: videoKey(id),
      completedAt: new Date(),
      settings: normalizeVideoSettings(alpha ? { alpha: true } : undefined),
      ...(expiresAt ? { expiresAt, createdAt: new Date(expiresAt.getTime() - 7 * 86_400_000) } : {}),
    });
    await env.MEDIA.put(videoKey(id), "mp4");
    if (stored) await env.MEDIA.put(alphaVideoKey(id), "webm");
    return id;
  }

  it("under the rules of videoUrl: fresh, 15 minutes capped by expiresAt, works without App headers as video/webm", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const expiresAt = new Date(Date.now() + 5 * 60_000);
    const id = await succeeded(acct.accountId, avatarId, true, true, expiresAt);
    const body = await json<Detail>(await openFetch(`/video-jobs/${id}`, { headers: acct.headers }));
    expect(body.alphaVideoUrl).toMatch(/\/v1\/media\/videos\/[0-9a-f-]+\.webm\?acct=[0-9a-f-]+&exp=\d+&sig=/);
    expect(body.alphaVideoUrlExpiresAt).toBe(body.videoUrlExpiresAt);
    expect(Date.parse(body.alphaVideoUrlExpiresAt!)).toBeLessThanOrEqual(expiresAt.getTime());
    const download = await SELF.fetch(body.alphaVideoUrl!);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("video/webm");
    expect(await download.text()).toBe("webm");
    // The MP4 link's signature does not open the WebM.
    const forged = body.videoUrl!.replace(".mp4?", ".webm?");
    expect((await SELF.fetch(forged)).status).toBe(403);
  });

  it("omitted without alpha, before success and once expired; 503 when the WebM cannot be linked; the list carries no links", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const get = (id: string) => openFetch(`/video-jobs/${id}`, { headers: acct.headers });
    const plain = await json<Detail>(await get(await succeeded(acct.accountId, avatarId, false)));
    expect(plain.videoUrl).toBeDefined();
    expect(plain).not.toHaveProperty("alphaVideoUrl");
    const queued = await insertVideoJob(acct.accountId, avatarId, {
      settings: normalizeVideoSettings({ alpha: true }),
    });
    expect(Object.keys(await json<Detail>(await get(queued)))).toEqual(["job"]);
    const old = await succeeded(acct.accountId, avatarId, true, true, new Date(Date.now() - 1000));
    expect(Object.keys(await json<Detail>(await get(old)))).toEqual(["job"]);
    await expectError(await get(await succeeded(acct.accountId, avatarId, true, false)), 503, "service_unavailable");
    const list = await json<{ jobs: object[] }>(await openFetch("/video-jobs", { headers: acct.headers }));
    expect(JSON.stringify(list)).not.toMatch(/alphaVideoUrl|videoUrl|\.webm/);
  });
});

describe("the WebM is kept and deleted with the MP4", () => {
  it("retention and a failed job's cleanup delete both files", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const expired = await insertVideoJob(acct.accountId, avatarId, {
      status: "succeeded",
      stage: "completed",
      outputKey: "x",
      settings: normalizeVideoSettings({ alpha: true }),
    });
    const failed = crypto.randomUUID();
    for (const id of [expired, failed])
      for (const key of [videoKey(id), alphaVideoKey(id)]) await env.MEDIA.put(key, "x");
    const row = (await db().select().from(videoJobs).where(eq(videoJobs.id, expired)).get())!;
    await expireVideoJob(env, { ...row, outputKey: videoKey(expired) }, Date.now());
    await deleteFailedJobOutputs(env, "video", failed);
    for (const id of [expired, failed])
      for (const key of [videoKey(id), alphaVideoKey(id)]) expect(await env.MEDIA.head(key), key).toBeNull();
  });
});

describe("live clients", () => {
  it("the rig carries a signed matteUrl once the Avatar has a matte; the link serves the PNG, cross-origin", async () => {
    const acct = await createAccount();
    const avatarId = await readyAvatar(acct.accountId);
    const rigUrl = signedRigUrl(env, "http://x", avatarId, "rig.json", acct.accountId);
    expect(await (await SELF.fetch(rigUrl)).json()).not.toHaveProperty("matteUrl");
    await expectError(
      await SELF.fetch(signedRigUrl(env, "http://x", avatarId, "matte.png", acct.accountId)),
      404,
      "not_found",
      "has no matte yet",
    );
    await env.MEDIA.put(avatarKeys(avatarId).matte, new Uint8Array([137, 80, 78, 71, 1]));
    const rig = (await (await SELF.fetch(rigUrl)).json()) as { matteUrl?: string };
    expect(rig.matteUrl).toMatch(
      new RegExp(`/v1/motion/avatars/${avatarId}/matte\\.png\\?acct=[0-9a-f-]+&exp=\\d+&sig=`),
    );
    const matte = await SELF.fetch(rig.matteUrl!);
    expect(matte.status).toBe(200);
    expect(matte.headers.get("content-type")).toBe("image/png");
    expect(matte.headers.get("access-control-allow-origin")).toBe("*");
    expect(new Uint8Array(await matte.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71, 1]));
  });
});
