import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { avatarIdForJob } from "../../workers/pipeline/jobs/avatar-id";
import { AVATAR_START_DEADLINE_MS, MAX_ATTEMPTS } from "../../workers/pipeline/jobs/constants";
import { runSweep } from "../../workers/pipeline/queue/sweep";
import { avatarKeys, videoKey } from "../../workers/platform/storage/keys";
import {
  createAccount,
  createAvatarJob,
  createVideoJob,
  insertAvatar,
  jobRow,
  objectRequest,
  startRun,
} from "./pipeline-helpers";

// Issue 24, point 6: nothing is kept past its promise. A failed job keeps no output, whichever run wrote it.

const listed = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);

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
});
