import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { avatarIdForJob } from "../../../workers/pipeline/jobs/avatar-id";
import { AVATAR_START_DEADLINE_MS, MAX_ATTEMPTS } from "../../../workers/pipeline/jobs/constants";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { fromBase64Url } from "../../../workers/platform/crypto/base64url";
import { avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
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

// Issue 24, point 6: nothing is kept past its promise. A failed job keeps no output, whichever run wrote it.

const listed = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);
const MiB = 1024 * 1024;

/**
 * A run starts a multipart upload of its MP4 (6 MiB in parts of 5 MiB) and sends part 1, then goes no further.
 * Returns R2's own upload id (carried in the signed plan) and the run's complete call.
 */
async function unfinishedUpload(jobId: string, attempt: number) {
  const call = async (method: string, query: string, body?: BodyInit, json?: unknown) =>
    SELF.fetch(`http://x/internal/objects/${videoKey(jobId)}?job=${jobId}&attempt=${attempt}${query}`, {
      method,
      headers: {
        authorization: `Bearer ${await jobToken(env, "video", jobId, attempt)}`,
        ...(json === undefined ? {} : { "content-type": "application/json" }),
      },
      body: json === undefined ? body : JSON.stringify(json),
    });
  const created = await call("POST", "&uploads", undefined, { size: 6 * MiB, partBytes: 5 * MiB });
  expect(created.status).toBe(200);
  const { uploadId } = (await created.json()) as { uploadId: string };
  const part = await call("PUT", `&uploadId=${uploadId}&partNumber=1`, new Uint8Array(5 * MiB));
  expect(part.status).toBe(200);
  const r2UploadId = (JSON.parse(new TextDecoder().decode(fromBase64Url(uploadId.split(".")[0])!)) as { u: string }).u;
  const parts = [(await part.json()) as { partNumber: number; etag: string }];
  return { r2UploadId, uploadId, call, parts };
}

/**
 * Whether R2 still holds the upload open. The local R2 cannot list unfinished uploads (ListMultipartUploads is
 * not implemented by Miniflare, nor offered by the Worker binding), so each is asked directly: an aborted
 * upload refuses a new part.
 */
const uploadOpen = (key: string, r2UploadId: string) =>
  env.MEDIA.resumeMultipartUpload(key, r2UploadId)
    .uploadPart(2, new Uint8Array(16))
    .then(
      () => true,
      () => false,
    );

describe("retention of what runs wrote", () => {
  it("a video whose success report was lost: its MP4 is gone once the job fails, and stays gone after the sweep", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, MAX_ATTEMPTS);
    expect(
      (await objectRequest("video", jobId, MAX_ATTEMPTS, "PUT", videoKey(jobId), new Uint8Array(1000))).status,
    ).toBe(200);
    expect(await listed(videoKey(jobId))).toEqual([videoKey(jobId)]);
    // The run goes silent (its "succeeded" never arrives); with no attempts left the sweep fails the job.
    await env.DB.prepare("update video_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 10 * 60_000, jobId)
      .run();
    await runSweep(env, Date.now());
    expect((await jobRow("video", jobId))!.status).toBe("failed");
    expect(await listed(videoKey(jobId))).toEqual([]);
  });

  it("an Avatar job failed by its deadline keeps no portrait, rig, cover or matte", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await startRun("avatar", jobId, 2);
    const keys = avatarKeys(await avatarIdForJob(jobId));
    for (const key of Object.values(keys))
      expect((await objectRequest("avatar", jobId, 2, "PUT", key, new Uint8Array(100))).status).toBe(200);
    expect(await listed(`avatars/${await avatarIdForJob(jobId)}/`)).toHaveLength(4);
    await runSweep(env, Date.now() + AVATAR_START_DEADLINE_MS + 60_000);
    expect((await jobRow("avatar", jobId))!.status).toBe("failed");
    expect(await listed(`avatars/${await avatarIdForJob(jobId)}/`)).toEqual([]);
  });

  it("an upload that lands after its job failed is deleted by the next sweep", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, MAX_ATTEMPTS);
    await env.DB.prepare("update video_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 10 * 60_000, jobId)
      .run();
    await runSweep(env, Date.now());
    expect((await jobRow("video", jobId))!.status).toBe("failed");
    await env.MEDIA.put(videoKey(jobId), new Uint8Array(10)); // a PUT that began while the run was current
    await runSweep(env, Date.now() + 60_000);
    expect(await listed(videoKey(jobId))).toEqual([]);
  });

  it("a fenced run's unfinished multipart upload is aborted by the next sweep; the current run's MP4 stays", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, 4);
    const fenced = await unfinishedUpload(jobId, 4);
    // Attempt 4 goes silent; attempt 5 takes over, stores the MP4 and succeeds. Attempt 4 can no longer abort
    // its own upload (its requests answer 409).
    await startRun("video", jobId, 5);
    expect((await fenced.call("DELETE", `&uploadId=${fenced.uploadId}`)).status).toBe(409);
    expect((await objectRequest("video", jobId, 5, "PUT", videoKey(jobId), new Uint8Array(1000))).status).toBe(200);
    expect((await postEvent("video", jobId, 5, { type: "succeeded", result: { durationSeconds: 1 } })).status).toBe(
      200,
    );
    expect(await listed(`videos/${jobId}`)).toEqual([videoKey(jobId)]);

    const report = await runSweep(env, Date.now());
    expect(await uploadOpen(videoKey(jobId), fenced.r2UploadId)).toBe(false);
    expect(report.uploadsAborted).toBe(1);
    expect(await listed(`videos/${jobId}`)).toEqual([videoKey(jobId)]); // the contract keeps the MP4 until expiry
    expect((await env.MEDIA.get(videoKey(jobId)))!.size).toBe(1000);
  });

  it("a job failed with an unfinished multipart upload keeps nothing: the same sweep fails it and aborts the upload", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, MAX_ATTEMPTS);
    const { r2UploadId } = await unfinishedUpload(jobId, MAX_ATTEMPTS);
    await env.DB.prepare("update video_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 10 * 60_000, jobId)
      .run();
    const report = await runSweep(env, Date.now());
    expect((await jobRow("video", jobId))!.status).toBe("failed");
    expect(await uploadOpen(videoKey(jobId), r2UploadId)).toBe(false);
    expect(report.uploadsAborted).toBe(1);
    expect(await listed(`videos/${jobId}`)).toEqual([]);
  });

  it("the current run's upload is left alone by the sweep and completes; once completed it is forgotten", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await startRun("video", jobId, 5);
    const run = await unfinishedUpload(jobId, 5);
    expect((await runSweep(env, Date.now())).uploadsAborted).toBe(0);
    const last = await run.call("PUT", `&uploadId=${run.uploadId}&partNumber=2`, new Uint8Array(1 * MiB));
    expect(last.status).toBe(200);
    const parts = [...run.parts, (await last.json()) as { partNumber: number; etag: string }];
    expect((await run.call("POST", `&uploadId=${run.uploadId}`, undefined, { parts })).status).toBe(200);
    expect((await postEvent("video", jobId, 5, { type: "succeeded", result: { durationSeconds: 1 } })).status).toBe(
      200,
    );
    expect((await runSweep(env, Date.now())).uploadsAborted).toBe(0);
    expect((await env.MEDIA.get(videoKey(jobId)))!.size).toBe(6 * MiB);
  });
});
