import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../../../workers/platform/env";
import worker from "../../../workers/index";
import { AVATAR_START_DEADLINE_MS, MAX_ATTEMPTS } from "../../../workers/pipeline/jobs/constants";
import { RendererContainer } from "../../../workers/pipeline/renderer/container";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import { videoKey } from "../../../workers/platform/storage/keys";
import { getAccount, openFetch } from "../helpers/accounts";
import {
  consume,
  createAccount,
  createAvatarJob,
  createVideoJob,
  fakeRenderer,
  insertAvatar,
  jobRow,
  objectRequest,
  postEvent,
  recordingQueue,
} from "../helpers/pipeline";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

function sweepEnv() {
  const queue = recordingQueue();
  const renderer = fakeRenderer();
  const testEnv: Env = { ...renderer.env, JOBS: queue.binding };
  return { env: testEnv, sent: queue.sent, dispatches: renderer.dispatches, renderer: renderer.state };
}

const set = (table: "avatar_jobs" | "video_jobs", id: string, fields: Record<string, unknown>) =>
  env.DB.prepare(
    `update ${table} set ${Object.keys(fields)
      .map((k) => `${k} = ?`)
      .join(", ")} where id = ?`,
  )
    .bind(...Object.values(fields), id)
    .run();

describe("sweep: queued jobs", () => {
  it("re-sends a job whose queue send failed (enqueuedAt null) and one sent long ago; leaves fresh ones", async () => {
    const acct = await createAccount();
    const unsent = await createAvatarJob(acct);
    const lost = await createAvatarJob(acct);
    const fresh = await createAvatarJob(acct);
    const justCreated = await createAvatarJob(acct);
    const now = Date.now();
    await set("avatar_jobs", unsent, { enqueued_at: null, created_at: now - MIN });
    await set("avatar_jobs", lost, { enqueued_at: now - 3 * MIN });
    await set("avatar_jobs", fresh, { enqueued_at: now - 30_000 });
    await set("avatar_jobs", justCreated, { enqueued_at: null, created_at: now - 1000 });
    const s = sweepEnv();
    const report = await runSweep(s.env, now);
    const sentIds = s.sent.map((m) => m.jobId);
    expect(sentIds).toContain(unsent);
    expect(sentIds).toContain(lost);
    expect(sentIds).not.toContain(fresh);
    expect(sentIds).not.toContain(justCreated); // its enqueueJob may still be running
    expect(report.resent).toBeGreaterThanOrEqual(2);
    expect((await jobRow("avatar", unsent))!.enqueued_at).toBe(now);
    // The re-sent message is dispatched by the consumer like any other.
    await consume(
      s.env,
      s.sent.filter((m) => m.jobId === unsent),
    );
    expect(await jobRow("avatar", unsent)).toMatchObject({ status: "processing", attempt: 1 });
  }, 30_000);

  it("re-sends video jobs too, and handles at most a bounded batch per run", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const jobId = await createVideoJob(acct, avatarId);
    const now = Date.now();
    await set("video_jobs", jobId, { enqueued_at: null, created_at: now - MIN });
    // 60 more never-sent rows.
    const stmt = env.DB.prepare(
      `insert into video_jobs (id, account_id, app_id, name, status, attempt, created_at, updated_at, avatar_id, fingerprint, audio_url, settings, stage, expires_at)
       select ?, account_id, app_id, name, 'queued', 0, ?, ?, avatar_id, fingerprint, audio_url, settings, 'queued', expires_at from video_jobs where id = ?`,
    );
    await env.DB.batch(
      Array.from({ length: 60 }, () => stmt.bind(crypto.randomUUID(), now - 2 * MIN, now - 2 * MIN, jobId)),
    );
    const s = sweepEnv();
    await runSweep(s.env, now);
    const video = s.sent.filter((m) => m.kind === "video");
    expect(video).toHaveLength(50);
    await runSweep(s.env, now);
    expect(new Set(s.sent.filter((m) => m.kind === "video").map((m) => m.jobId)).size).toBe(61);
  });
});

describe("sweep: stalled runs", () => {
  it(`a silent Avatar run is dispatched again (attempt + 1) up to ${MAX_ATTEMPTS} attempts, then fails retryable; unit released`, async () => {
    const acct = await createAccount({ avatarUnits: 1 });
    const jobId = await createAvatarJob(acct);
    const s = sweepEnv();
    await consume(s.env, [{ kind: "avatar", jobId }]);
    const attempts = Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1);
    for (const expected of attempts.slice(1)) {
      await set("avatar_jobs", jobId, { heartbeat_at: Date.now() - 31_000 });
      s.sent.length = 0;
      const report = await runSweep(s.env, Date.now());
      expect(report.redispatched).toBe(1);
      expect(s.sent).toEqual([{ kind: "avatar", jobId }]);
      await consume(s.env, s.sent);
      expect(await jobRow("avatar", jobId)).toMatchObject({ status: "processing", attempt: expected });
    }
    // A run that still beats is left alone.
    s.sent.length = 0;
    await runSweep(s.env, Date.now());
    expect(s.sent).toEqual([]);
    await set("avatar_jobs", jobId, { heartbeat_at: Date.now() - 31_000 });
    const report = await runSweep(s.env, Date.now());
    expect(report.stalledFailed).toBe(1);
    expect(s.dispatches.map((d) => d.payload.attempt)).toEqual(attempts);
    const row = (await jobRow("avatar", jobId))!;
    expect(row).toMatchObject({
      status: "failed",
      error_code: "internal_error",
      error_retryable: 1,
      unit_state: "released",
    });
    expect(row.completed_at).toBeTypeOf("number");
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
    // Its late events change nothing.
    expect(await (await postEvent("avatar", jobId, MAX_ATTEMPTS, { type: "succeeded" })).json()).toEqual({
      ignored: true,
    });
  });

  it("a stalled video run after the last attempt fails render_failed (retryable)", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await set("video_jobs", jobId, { status: "processing", attempt: MAX_ATTEMPTS, heartbeat_at: Date.now() - 5 * MIN });
    await runSweep(sweepEnv().env, Date.now());
    expect(await jobRow("video", jobId)).toMatchObject({
      status: "failed",
      error_code: "render_failed",
      error_retryable: 1,
    });
  });

  it("an Avatar job unresolved after 10 minutes (not an hour) fails instead of holding its unit and slot", async () => {
    expect(AVATAR_START_DEADLINE_MS).toBe(10 * MIN);
    const acct = await createAccount({ avatarUnits: 1, limits: { avatar: { concurrent: 1 } } });
    const jobId = await createAvatarJob(acct);
    await set("avatar_jobs", jobId, { created_at: Date.now() - 9 * MIN });
    expect((await runSweep(sweepEnv().env, Date.now())).avatarTimedOut).toBe(0);
    await set("avatar_jobs", jobId, { created_at: Date.now() - 10 * MIN - 1000 });
    const report = await runSweep(sweepEnv().env, Date.now());
    expect(report.avatarTimedOut).toBe(1);
    expect(await jobRow("avatar", jobId)).toMatchObject({
      status: "failed",
      error_code: "avatar_generation_failed",
      error_message: "Avatar generation failed.",
      error_retryable: 1,
      unit_state: "released",
    });
    await createAvatarJob(acct); // slot and unit are free again
  });
});

describe("sweep: a renderer or container that died mid-run (issue 8)", () => {
  it("a silent video run reads waiting_for_renderer, is dispatched again to the same Container instance and completes", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    const s = sweepEnv();
    await consume(s.env, [{ kind: "video", jobId }]);
    await postEvent("video", jobId, 1, { type: "progress", stage: "rendering" });
    // 20 s of silence: still alive for the 30 s threshold.
    await set("video_jobs", jobId, { heartbeat_at: Date.now() - 20_000 });
    expect((await runSweep(s.env, Date.now())).redispatched).toBe(0);
    expect((await jobRow("video", jobId))!.stage).toBe("rendering");
    // The container died: no beat for 31 s. The caller sees the job waiting for a renderer, not "rendering".
    await set("video_jobs", jobId, { heartbeat_at: Date.now() - 31_000, updated_at: 0 });
    const now = Date.now();
    expect((await runSweep(s.env, now)).redispatched).toBe(1);
    expect(await jobRow("video", jobId)).toMatchObject({
      status: "processing",
      attempt: 1,
      stage: "waiting_for_renderer",
      updated_at: now,
    });
    const read = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
    expect(((await read.json()) as { job: { progress: unknown } }).job.progress).toEqual({
      stage: "waiting_for_renderer",
    });
    // A second sweep before the message is consumed sends it again but does not touch updatedAt.
    expect((await runSweep(s.env, now + 5_000)).redispatched).toBe(1);
    expect((await jobRow("video", jobId))!.updated_at).toBe(now);
    // The consumer dispatches attempt 2 through the RENDERER binding to the same instance: in production its
    // Container `fetch` starts a fresh container first. A duplicate message finds the new run alive.
    await consume(
      s.env,
      s.sent.filter((m) => m.jobId === jobId),
    );
    expect(s.dispatches.map((d) => d.payload.attempt)).toEqual([1, 2]);
    expect(s.dispatches[1].instance).toBe(s.dispatches[0].instance);
    expect(await jobRow("video", jobId)).toMatchObject({ status: "processing", attempt: 2, stage: "starting" });
    // Anything the dead run still sends is refused; the new run completes the job.
    expect(await (await postEvent("video", jobId, 1, { type: "progress", stage: "encoding" })).json()).toMatchObject({
      ignored: true,
      abort: { code: "superseded" },
    });
    expect((await objectRequest("video", jobId, 1, "PUT", videoKey(jobId), "old")).status).toBe(409);
    await postEvent("video", jobId, 2, { type: "progress", stage: "rendering" });
    expect((await objectRequest("video", jobId, 2, "PUT", videoKey(jobId), new Uint8Array(64))).status).toBe(200);
    await postEvent("video", jobId, 2, { type: "succeeded" });
    expect(await jobRow("video", jobId)).toMatchObject({ status: "succeeded", stage: "completed", attempt: 2 });
    expect((await env.MEDIA.head(videoKey(jobId)))!.size).toBe(64);
  });

  it("the Container lifecycle hooks log one line each; a failed start is rethrown so the dispatch is retried", () => {
    const self = Object.create(RendererContainer.prototype, {
      ctx: { value: { id: { name: "renderer-2", toString: () => "id" } } },
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      RendererContainer.prototype.onStart.call(self);
      RendererContainer.prototype.onStop.call(self, { exitCode: 137, reason: "runtime_signal" });
      RendererContainer.prototype.onStop.call(self, { exitCode: 0, reason: "exit" });
      const boom = new Error("port 8080 never opened");
      expect(() => RendererContainer.prototype.onError.call(self, boom)).toThrow(boom);
      const lines = [...log.mock.calls, ...warn.mock.calls].map(([l]) => JSON.parse(String(l)));
      expect(lines).toEqual(
        expect.arrayContaining([
          { event: "renderer_container_started", level: "info", instance: "renderer-2" },
          {
            event: "renderer_container_stopped",
            level: "warn",
            instance: "renderer-2",
            exitCode: 137,
            reason: "runtime_signal",
            crashed: true,
          },
          {
            event: "renderer_container_stopped",
            level: "info",
            instance: "renderer-2",
            exitCode: 0,
            reason: "exit",
            crashed: false,
          },
          { event: "renderer_container_error", level: "warn", instance: "renderer-2", error: "port 8080 never opened" },
        ]),
      );
      expect(warn.mock.calls).toHaveLength(2); // the crash and the error; a clean stop is not a warning
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});

describe("sweep: video retention", () => {
  it("succeeded past expiresAt → expired: output deleted, no link, history readable", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    const completedAt = Date.now() - DAY;
    await set("video_jobs", jobId, {
      status: "succeeded",
      stage: "completed",
      output_key: videoKey(jobId),
      completed_at: completedAt,
    });
    await env.MEDIA.put(videoKey(jobId), "mp4");
    const s = sweepEnv();
    expect((await runSweep(s.env, Date.now())).expired).toBe(0); // not yet
    await set("video_jobs", jobId, { expires_at: Date.now() - 1 });
    expect((await runSweep(s.env, Date.now())).expired).toBe(1);
    expect(await env.MEDIA.head(videoKey(jobId))).toBeNull();
    const row = (await jobRow("video", jobId))!;
    expect(row).toMatchObject({ status: "expired", output_key: null, stage: "completed", completed_at: completedAt });
    const res = await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.videoUrl).toBeUndefined();
    expect(body.videoUrlExpiresAt).toBeUndefined();
    expect(body.job).toMatchObject({ id: jobId, status: "expired" });
  });

  it("queued or processing for seven days → expired (and a late run cannot resurrect it)", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const queued = await createVideoJob(acct, avatarId);
    const processing = await createVideoJob(acct, avatarId);
    const weekAgo = Date.now() - 7 * DAY - 1000;
    await set("video_jobs", queued, { created_at: weekAgo, expires_at: weekAgo + 7 * DAY });
    await set("video_jobs", processing, {
      status: "processing",
      attempt: 1,
      heartbeat_at: Date.now(),
      created_at: weekAgo,
      expires_at: weekAgo + 7 * DAY,
    });
    await runSweep(sweepEnv().env, Date.now());
    expect((await jobRow("video", queued))!.status).toBe("expired");
    expect((await jobRow("video", processing))!.status).toBe("expired");
    expect((await objectRequest("video", processing, 1, "PUT", videoKey(processing), "late")).status).toBe(409);
    expect(
      await (await postEvent("video", processing, 1, { type: "progress", stage: "rendering" })).json(),
    ).toMatchObject({ ignored: true, abort: { code: "superseded" } });
  });

  it("failed jobs stay failed", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await set("video_jobs", jobId, { status: "failed", error_code: "render_failed", expires_at: Date.now() - 1 });
    await runSweep(sweepEnv().env, Date.now());
    expect((await jobRow("video", jobId))!.status).toBe("failed");
  });
});

describe("sweep: limiter reconciliation and the cron entry point", () => {
  it("a slot and unit left behind by a lost limiter call are freed by the next sweep", async () => {
    const acct = await createAccount({ avatarUnits: 1, limits: { avatar: { concurrent: 1 } } });
    const jobId = await createAvatarJob(acct);
    // D1 says failed (unit released) but the limiter never heard: it still holds the slot and the unit.
    await set("avatar_jobs", jobId, {
      status: "failed",
      unit_state: "released",
      error_code: "internal_error",
      updated_at: Date.now(),
    });
    expect(await getAccount(acct.accountId)).toMatchObject({ reservedAvatarUnits: 1 });
    const report = await runSweep(sweepEnv().env, Date.now());
    expect(report.reconciledAccounts).toBeGreaterThanOrEqual(1);
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
  });

  it("the scheduled handler runs the sweep at the controller's time", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    const s = sweepEnv();
    // Earlier tests of this file left 60+ queued video jobs: at +8 days they all expire, 50 per run.
    for (let run = 0; run < 2; run++) {
      const ctx = createExecutionContext();
      await worker.scheduled(
        createScheduledController({ scheduledTime: Date.now() + 8 * DAY, cron: "* * * * *" }),
        s.env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
    }
    expect((await jobRow("video", jobId))!.status).toBe("expired");
  });
});
