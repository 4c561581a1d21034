import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { avatarIdForJob } from "../../../workers/pipeline/jobs/avatar-id";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import { getAccount, patchAccount } from "../helpers/accounts";
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

const avatarCount = async (accountId: string) =>
  (await env.DB.prepare("select count(*) as n from avatars where account_id = ?")
    .bind(accountId)
    .first<{ n: number }>())!.n;

/** The renderer's uploads for an Avatar job run. */
async function uploadAvatarOutputs(jobId: string, attempt: number) {
  const keys = avatarKeys(await avatarIdForJob(jobId));
  for (const key of Object.values(keys)) {
    const res = await objectRequest("avatar", jobId, attempt, "PUT", key, new Uint8Array([1, 2, 3, 4]));
    expect(res.status).toBe(200);
  }
  return keys;
}

describe("avatar job events", () => {
  it("success path: unit captured at preprocessed, one Avatar, avatarId + completedAt, slot freed", async () => {
    const acct = await createAccount({ avatarUnits: 3, limits: { avatar: { concurrent: 1 } } });
    const jobId = await createAvatarJob(acct);
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 3, reservedAvatarUnits: 1 });
    await startRun("avatar", jobId, 5);

    expect(await (await postEvent("avatar", jobId, 5, { type: "progress", stage: "analyzing" })).json()).toEqual({
      ok: true,
    });
    expect((await jobRow("avatar", jobId))!.unit_state).toBe("reserved");
    await postEvent("avatar", jobId, 5, { type: "progress", stage: "preprocessed" });
    expect((await jobRow("avatar", jobId))!.unit_state).toBe("captured");
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 2, reservedAvatarUnits: 0 });

    await uploadAvatarOutputs(jobId, 5);
    const res = await postEvent("avatar", jobId, 5, { type: "succeeded", result: {} });
    expect(res.status).toBe(200);
    const row = (await jobRow("avatar", jobId))!;
    const avatarId = await avatarIdForJob(jobId);
    expect(row).toMatchObject({ status: "succeeded", avatar_id: avatarId, unit_state: "captured" });
    expect(row.completed_at).toBeTypeOf("number");
    expect(await avatarCount(acct.accountId)).toBe(1);

    // Visible through the API: the job carries avatarId, the Avatar is listed with a working cover.
    const { openFetch } = await import("../helpers/accounts");
    const job = (await (await openFetch(`/avatar-jobs/${jobId}`, { headers: acct.headers })).json()) as {
      job: Record<string, unknown>;
    };
    expect(job.job).toMatchObject({ status: "succeeded", avatarId });
    expect(job.job.completedAt).toBeTypeOf("string");
    const avatar = (await (await openFetch(`/avatars/${avatarId}`, { headers: acct.headers })).json()) as {
      avatar: { coverUrl: string; name: string };
    };
    expect(avatar.avatar.name).toBe("Ada");
    const { SELF } = await import("cloudflare:test");
    const cover = await SELF.fetch(avatar.avatar.coverUrl);
    expect(cover.status).toBe(200);
    expect(new Uint8Array(await cover.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(cover.headers.get("content-type")).toBe("image/jpeg");
    // The concurrency slot was freed: with a limit of 1, the next job is admitted.
    await createAvatarJob(acct);
  });

  it("replayed events and a second attempt's success never create a second Avatar or capture twice", async () => {
    const acct = await createAccount({ avatarUnits: 5 });
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await uploadAvatarOutputs(jobId, 5);
    for (let i = 0; i < 3; i++) await postEvent("avatar", jobId, 5, { type: "progress", stage: "preprocessed" });
    // The first run goes silent and is dispatched again (attempt 6); both runs finish.
    await startRun("avatar", jobId, 6);
    await postEvent("avatar", jobId, 6, { type: "progress", stage: "preprocessed" });
    await uploadAvatarOutputs(jobId, 6);
    expect(await (await postEvent("avatar", jobId, 6, { type: "succeeded" })).json()).toEqual({ ok: true });
    expect(await (await postEvent("avatar", jobId, 6, { type: "succeeded" })).json()).toEqual({ ignored: true });
    expect(await (await postEvent("avatar", jobId, 5, { type: "succeeded" })).json()).toEqual({ ignored: true });
    expect(
      await (await postEvent("avatar", jobId, 5, { type: "failed", error: { code: "preprocess_failed" } })).json(),
    ).toEqual({ ignored: true });
    expect(await avatarCount(acct.accountId)).toBe(1);
    expect((await jobRow("avatar", jobId))!.status).toBe("succeeded");
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 4, reservedAvatarUnits: 0 });
  });

  it("success without the preprocessed event still captures the unit exactly once", async () => {
    const acct = await createAccount({ avatarUnits: 2 });
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await uploadAvatarOutputs(jobId, 5);
    await postEvent("avatar", jobId, 5, { type: "succeeded" });
    expect((await jobRow("avatar", jobId))!.unit_state).toBe("captured");
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
  });

  it("failure before preprocessed releases the unit; spec message per code; slot freed", async () => {
    const acct = await createAccount({ avatarUnits: 1, limits: { avatar: { concurrent: 1 } } });
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await postEvent("avatar", jobId, 5, { type: "progress", stage: "downloading" });
    const res = await postEvent("avatar", jobId, 5, {
      type: "failed",
      error: { code: "invalid_image", message: "PNG has alpha at https://secret.example/x?sig=1", retryable: false },
    });
    expect(await res.json()).toEqual({ ok: true });
    const row = (await jobRow("avatar", jobId))!;
    expect(row).toMatchObject({
      status: "failed",
      unit_state: "released",
      error_code: "invalid_image",
      error_message: "The source image is not a supported opaque JPEG or PNG of sufficient size.",
    });
    expect(row.error_retryable).toBe(0);
    expect(row.completed_at).toBeTypeOf("number");
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
    expect(await avatarCount(acct.accountId)).toBe(0);
    // The unit and the concurrency slot are free again: a new job is admitted.
    await createAvatarJob(acct);
  });

  it("failure after preprocessed keeps the unit captured", async () => {
    const acct = await createAccount({ avatarUnits: 2 });
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await postEvent("avatar", jobId, 5, { type: "progress", stage: "preprocessed" });
    await postEvent("avatar", jobId, 5, {
      type: "failed",
      error: { code: "avatar_generation_failed", message: "x", retryable: true },
    });
    expect(await jobRow("avatar", jobId)).toMatchObject({
      status: "failed",
      unit_state: "captured",
      error_code: "avatar_generation_failed",
    });
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
  });

  it("an unknown failure code is stored as internal_error", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await postEvent("avatar", jobId, 5, {
      type: "failed",
      error: { code: "kaboom", message: "stack trace…", retryable: false },
    });
    const row = (await jobRow("avatar", jobId))!;
    expect(row.error_code).toBe("internal_error");
    expect(row.error_message).not.toContain("stack");
  });

  it("success whose outputs are missing from R2 fails avatar_generation_failed (no Avatar)", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    await postEvent("avatar", jobId, 5, { type: "succeeded" });
    expect(await jobRow("avatar", jobId)).toMatchObject({ status: "failed", error_code: "avatar_generation_failed" });
    expect(await avatarCount(acct.accountId)).toBe(0);
  });

  it("events of an older attempt are ignored and told to stop; progress updates the heartbeat", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 6, 30_000);
    const before = (await jobRow("avatar", jobId))!.heartbeat_at as number;
    const stale = (await (
      await postEvent("avatar", jobId, 5, { type: "progress", stage: "preprocessed" })
    ).json()) as Record<string, unknown>;
    expect(stale).toMatchObject({ ignored: true, abort: { code: "superseded" } });
    expect((await jobRow("avatar", jobId))!.unit_state).toBe("reserved");
    expect((await jobRow("avatar", jobId))!.heartbeat_at).toBe(before);
    await postEvent("avatar", jobId, 6, { type: "progress", stage: "analyzing" });
    expect((await jobRow("avatar", jobId))!.heartbeat_at as number).toBeGreaterThan(before);
  });
});

describe("internal authentication and scopes", () => {
  it("a bad, missing or other-attempt token is 401 in the envelope", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    const bad = await postEvent("avatar", jobId, 5, { type: "progress", stage: "x" }, "Zm9v");
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const otherAttempt = await postEvent(
      "avatar",
      jobId,
      5,
      { type: "progress", stage: "x" },
      await jobToken(env, "avatar", jobId, 4),
    );
    expect(otherAttempt.status).toBe(401);
    const otherJob = await postEvent(
      "avatar",
      jobId,
      5,
      { type: "progress", stage: "x" },
      await jobToken(env, "avatar", crypto.randomUUID(), 5),
    );
    expect(otherJob.status).toBe(401);
    const { SELF } = await import("cloudflare:test");
    const none = await SELF.fetch(`http://x/internal/jobs/${jobId}/events?attempt=5`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    const put = await objectRequest(
      "avatar",
      jobId,
      5,
      "PUT",
      avatarKeys(await avatarIdForJob(jobId)).cover,
      "x",
      "nope",
    );
    expect(put.status).toBe(401);
  });

  it("malformed events are 400 with the field named", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    const res = await postEvent("avatar", jobId, 5, { type: "progress", stage: "Not A Stage" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("stage");
    expect((await postEvent("avatar", jobId, 5, { type: "teleport" })).status).toBe(400);
  });

  it("an Avatar job may PUT only its own Avatar's artifacts and GET nothing", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 5);
    const own = avatarKeys(await avatarIdForJob(jobId));
    expect((await objectRequest("avatar", jobId, 5, "PUT", own.rig, "{}")).status).toBe(200);
    expect((await objectRequest("avatar", jobId, 5, "PUT", videoKey(jobId), "x")).status).toBe(403);
    expect((await objectRequest("avatar", jobId, 5, "PUT", avatarKeys(crypto.randomUUID()).cover, "x")).status).toBe(
      403,
    );
    expect(
      (await objectRequest("avatar", jobId, 5, "PUT", `avatars/${await avatarIdForJob(jobId)}/other.png`, "x")).status,
    ).toBe(403);
    expect((await objectRequest("avatar", jobId, 5, "GET", own.rig)).status).toBe(403);
    expect((await objectRequest("avatar", jobId, 5, "PUT", `avatars%2F..%2Fvideos%2F${jobId}.mp4`, "x")).status).toBe(
      400,
    );
    // Stored with the content type of its kind, not the sender's.
    expect((await env.MEDIA.head(own.rig))!.httpMetadata?.contentType).toBe("application/json");
  });

  it("a stale run may not write objects (409), so it cannot overwrite a newer run's output", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 6);
    const res = await objectRequest("avatar", jobId, 5, "PUT", avatarKeys(await avatarIdForJob(jobId)).cover, "x");
    expect(res.status).toBe(409);
  });

  it("a video job may GET its Avatar's objects and PUT only its MP4", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId, { background: true });
    const otherAvatar = await insertAvatar(acct.accountId);
    const jobId = await createVideoJob(acct, avatarId);
    await startRun("video", jobId, 5);
    const get = await objectRequest("video", jobId, 5, "GET", avatarKeys(avatarId).portrait);
    expect(get.status).toBe(200);
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect((await objectRequest("video", jobId, 5, "GET", `avatars/${avatarId}/background.png`)).status).toBe(200);
    expect((await objectRequest("video", jobId, 5, "GET", avatarKeys(otherAvatar).portrait)).status).toBe(403);
    expect((await objectRequest("video", jobId, 5, "PUT", avatarKeys(avatarId).cover, "x")).status).toBe(403);
    expect((await objectRequest("video", jobId, 5, "PUT", videoKey(crypto.randomUUID()), "x")).status).toBe(403);
    expect((await objectRequest("video", jobId, 5, "PUT", videoKey(jobId), "mp4")).status).toBe(200);
    expect((await env.MEDIA.head(videoKey(jobId)))!.httpMetadata?.contentType).toBe("video/mp4");
    // An Avatar job's token is not a video job's token.
    const wrongKind = await objectRequest(
      "video",
      jobId,
      5,
      "PUT",
      videoKey(jobId),
      "x",
      await jobToken(env, "avatar", jobId, 5),
    );
    expect(wrongKind.status).toBe(401);
  });
});

describe("video job events", () => {
  it("progress stages are persisted; success stores the output key and stage completed", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const jobId = await createVideoJob(acct, avatarId);
    await startRun("video", jobId, 5);
    await postEvent("video", jobId, 5, { type: "progress", stage: "preparing_media" });
    expect((await jobRow("video", jobId))!.stage).toBe("preparing_media");
    expect(await (await postEvent("video", jobId, 5, { type: "progress", stage: "rendering" })).json()).toEqual({
      ok: true,
    });
    expect((await jobRow("video", jobId))!.stage).toBe("rendering");
    await objectRequest("video", jobId, 5, "PUT", videoKey(jobId), new Uint8Array(64));
    await postEvent("video", jobId, 5, { type: "succeeded", result: { durationSeconds: 3 } });
    const row = (await jobRow("video", jobId))!;
    expect(row).toMatchObject({ status: "succeeded", stage: "completed", output_key: videoKey(jobId) });
    expect(row.completed_at).toBeTypeOf("number");
  });

  it("success without an uploaded MP4 fails render_failed", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, 5);
    await postEvent("video", jobId, 5, { type: "succeeded" });
    expect(await jobRow("video", jobId)).toMatchObject({
      status: "failed",
      error_code: "render_failed",
      error_retryable: 1,
    });
  });

  it("failure codes keep the renderer's safe message, else a clear one per code", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const a = await createVideoJob(acct, avatarId);
    await startRun("video", a, 5);
    await postEvent("video", a, 5, {
      type: "failed",
      error: { code: "empty_media", message: "The audio file is empty.", retryable: false },
    });
    expect(await jobRow("video", a)).toMatchObject({
      status: "failed",
      error_code: "empty_media",
      error_message: "The audio file is empty.",
      error_retryable: 0,
    });
    const b = await createVideoJob(acct, avatarId);
    await startRun("video", b, 5);
    await postEvent("video", b, 5, {
      type: "failed",
      error: { code: "source_unavailable", message: "GET https://bucket/x?X-Amz-Signature=abc gave 403" },
    });
    const row = (await jobRow("video", b))!;
    expect(row.error_code).toBe("source_unavailable");
    expect(row.error_message).not.toContain("https://");
    expect(row.error_retryable).toBe(1);
  });

  it("before rendering: a revoked App aborts the job with app_access_revoked", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, 5);
    const { adminFetch } = await import("../helpers/accounts");
    expect((await adminFetch(`/apps/${acct.appId}`, { method: "DELETE" })).status).toBe(204);
    const answer = (await (
      await postEvent("video", jobId, 5, { type: "progress", stage: "rendering" })
    ).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ abort: { code: "app_access_revoked", retryable: true } });
    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "app_access_revoked" });
  });

  it("before rendering: video access removed from the account also counts as app_access_revoked", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, 5);
    await patchAccount(acct.accountId, { videoAccess: false });
    const answer = (await (
      await postEvent("video", jobId, 5, { type: "progress", stage: "rendering" })
    ).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ abort: { code: "app_access_revoked" } });
  });

  it("before rendering: an Avatar no longer allowed aborts with avatar_forbidden", async () => {
    const owner = await createAccount();
    const user = await createAccount();
    const avatarId = await insertAvatar(owner.accountId, { isPublic: true });
    const jobId = await createVideoJob(user, avatarId);
    await startRun("video", jobId, 5);
    await env.DB.prepare("update avatars set is_public = 0 where id = ?").bind(avatarId).run();
    const answer = (await (
      await postEvent("video", jobId, 5, { type: "progress", stage: "rendering" })
    ).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ abort: { code: "avatar_forbidden" } });
    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "avatar_forbidden" });
    // A later event of that run changes nothing.
    expect(await (await postEvent("video", jobId, 5, { type: "succeeded" })).json()).toEqual({ ignored: true });
  });
});
