import { createExecutionContext, env, getQueueResult, createMessageBatch } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../workers/platform/env";
import worker from "../../../workers/index";
import { avatarIdForJob } from "../../../workers/pipeline/jobs/avatar-id";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { enqueueJob } from "../../../workers/pipeline/queue/enqueue";
import { consumeJobs } from "../../../workers/pipeline/queue/consumer";
import { dispatchRetryDelaySeconds, MAX_ATTEMPTS, staleHeartbeatMs } from "../../../workers/pipeline/jobs/constants";
import type { JobMessage } from "../../../workers/pipeline/queue/messages";
import type { AvatarPayload, VideoPayload } from "../../../workers/pipeline/renderer/payload";
import { avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import { adminFetch, getAccount, openFetch } from "../helpers/accounts";
import {
  consume,
  createAccount,
  createAvatarJob,
  createVideoJob,
  fakeRenderer,
  insertAvatar,
  jobRow,
  recordingQueue,
} from "../helpers/pipeline";

const BASE = "http://127.0.0.1:8787"; // PUBLIC_BASE_URL is empty in tests: the local fallback

describe("enqueueJob", () => {
  it("sends the message and stamps enqueuedAt; a failed send never throws and leaves it null", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await env.DB.prepare("update avatar_jobs set enqueued_at = null where id = ?").bind(jobId).run();
    const broken: Env = {
      ...env,
      JOBS: {
        send: async () => {
          throw new Error("queue down");
        },
      } as unknown as Queue<JobMessage>,
    };
    await expect(enqueueJob(broken, { kind: "avatar", jobId })).resolves.toBeUndefined();
    expect((await jobRow("avatar", jobId))!.enqueued_at).toBeNull();

    const queue = recordingQueue();
    const before = Date.now();
    await enqueueJob({ ...env, JOBS: queue.binding }, { kind: "avatar", jobId });
    expect(queue.sent).toEqual([{ kind: "avatar", jobId }]);
    expect((await jobRow("avatar", jobId))!.enqueued_at as number).toBeGreaterThanOrEqual(before);
  });
});

describe("consumer: avatar jobs", () => {
  it("dispatches a queued job: processing, attempt 1, heartbeat; payload per the renderer contract", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct, { imageUrl: "https://example.com/portrait.png" });
    const renderer = fakeRenderer();
    const result = await consume(renderer.env, [{ kind: "avatar", jobId }]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(renderer.dispatches).toHaveLength(1);
    const { payload, authorization } = renderer.dispatches[0];
    expect(authorization).toBe("Bearer test-renderer-token");
    const keys = avatarKeys(await avatarIdForJob(jobId));
    const obj = (key: string) => `${BASE}/internal/objects/${key}?job=${jobId}&attempt=1`;
    expect(payload).toEqual({
      kind: "avatar",
      jobId,
      attempt: 1,
      callbackUrl: `${BASE}/internal/jobs/${jobId}/events?attempt=1`,
      token: await jobToken(env, "avatar", jobId, 1),
      imageUrl: "https://example.com/portrait.png",
      outputs: { portrait: obj(keys.portrait), rig: obj(keys.rig), cover: obj(keys.cover), matte: obj(keys.matte) },
    } satisfies AvatarPayload);
    const row = (await jobRow("avatar", jobId))!;
    expect(row).toMatchObject({ status: "processing", attempt: 1 });
    expect(Date.now() - (row.heartbeat_at as number)).toBeLessThan(5_000);
  });

  it("a redelivered message while the run is alive dispatches nothing more", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "avatar", jobId }]);
    const again = await consume(
      renderer.env,
      [
        { kind: "avatar", jobId },
        { kind: "avatar", jobId },
      ],
      2,
    );
    expect(again.explicitAcks).toHaveLength(2);
    expect(renderer.dispatches).toHaveLength(1);
    expect((await jobRow("avatar", jobId))!.attempt).toBe(1);
  });

  it("concurrent deliveries of one queued job start exactly one run", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    await Promise.all([1, 2, 3, 4].map(() => consume(renderer.env, [{ kind: "avatar", jobId }])));
    expect(renderer.dispatches).toHaveLength(1);
    expect((await jobRow("avatar", jobId))!.attempt).toBe(1);
  });

  it("a redelivery after the heartbeat went stale dispatches the next attempt", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "avatar", jobId }]);
    await env.DB.prepare("update avatar_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 61_000, jobId)
      .run();
    await consume(renderer.env, [{ kind: "avatar", jobId }], 2);
    expect(renderer.dispatches.map((d) => d.payload.attempt)).toEqual([1, 2]);
    // The same job always goes to the same Container instance (it can recognise a superseded run).
    expect(renderer.dispatches[0].instance).toBe(renderer.dispatches[1].instance);
  });

  it("renderer unreachable or busy: message retried with backoff, job back to queued, attempt not spent", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer("down");
    const first = await consume(renderer.env, [{ kind: "avatar", jobId }], 1);
    expect(first.retryMessages).toHaveLength(1);
    expect(first.explicitAcks).toHaveLength(0);
    expect(await jobRow("avatar", jobId)).toMatchObject({ status: "queued", attempt: 0, heartbeat_at: null });
    renderer.state.mode = "busy";
    expect((await consume(renderer.env, [{ kind: "avatar", jobId }], 2)).retryMessages).toHaveLength(1);
    expect(await jobRow("avatar", jobId)).toMatchObject({ status: "queued", attempt: 0 });
    renderer.state.mode = "accept";
    await consume(renderer.env, [{ kind: "avatar", jobId }], 3);
    expect(await jobRow("avatar", jobId)).toMatchObject({ status: "processing", attempt: 1 });
  });

  it("retry delays: 10 s doubling per delivery, at most 60 s (below the sweep's re-send age)", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer("down");
    // The pool's getQueueResult does not report delaySeconds: record what the consumer asks for.
    const delays: (number | undefined)[] = [];
    for (const attempts of [1, 2, 3, 9]) {
      const msg = {
        id: `d${attempts}`,
        timestamp: new Date(),
        attempts,
        body: { kind: "avatar", jobId },
        ack() {},
        retry: (o?: QueueRetryOptions) => delays.push(o?.delaySeconds),
      };
      await consumeJobs(
        {
          queue: "avatar-video-jobs",
          messages: [msg],
          ackAll() {},
          retryAll() {},
        } as unknown as MessageBatch<JobMessage>,
        renderer.env,
      );
    }
    expect(delays).toEqual([10, 20, 40, 60]);
    expect(dispatchRetryDelaySeconds(100)).toBe(60);
  });

  it("a payload the renderer rejects as invalid fails the job (unit released) instead of looping", async () => {
    const acct = await createAccount({ avatarUnits: 1 });
    const jobId = await createAvatarJob(acct);
    const result = await consume(fakeRenderer("reject").env, [{ kind: "avatar", jobId }]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await jobRow("avatar", jobId)).toMatchObject({
      status: "failed",
      error_code: "internal_error",
      unit_state: "released",
    });
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
  });

  it("terminal and unknown jobs and malformed messages are acknowledged without dispatch", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    await env.DB.prepare("update avatar_jobs set status = 'failed' where id = ?").bind(jobId).run();
    const renderer = fakeRenderer();
    const result = await consume(renderer.env, [
      { kind: "avatar", jobId },
      { kind: "video", jobId: crypto.randomUUID() },
      { nonsense: true } as unknown as JobMessage,
    ]);
    expect(result.explicitAcks).toHaveLength(3);
    expect(renderer.dispatches).toHaveLength(0);
  });

  it("the Worker's queue handler is the consumer", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    const batch = createMessageBatch<JobMessage>("avatar-video-jobs", [
      { id: "h1", timestamp: new Date(), attempts: 1, body: { kind: "avatar", jobId } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, renderer.env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["h1"]);
    expect(renderer.dispatches).toHaveLength(1);
  });
});

describe("consumer: video jobs", () => {
  it("payload carries the Avatar's objects, the sources, normalized settings and the output URL", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId, { background: true });
    const jobId = await createVideoJob(acct, avatarId, {
      backgroundUrl: "https://example.com/bg.webp",
      video: { width: 640, height: 360, backgroundColor: "#AABBCC" },
    });
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "video", jobId }]);
    const payload = renderer.dispatches[0].payload as VideoPayload;
    const obj = (key: string) => `${BASE}/internal/objects/${key}?job=${jobId}&attempt=1`;
    expect(payload).toEqual({
      kind: "video",
      jobId,
      attempt: 1,
      callbackUrl: `${BASE}/internal/jobs/${jobId}/events?attempt=1`,
      token: await jobToken(env, "video", jobId, 1),
      avatar: {
        portrait: obj(avatarKeys(avatarId).portrait),
        rig: obj(avatarKeys(avatarId).rig),
        background: obj(`avatars/${avatarId}/background.png`),
        matte: obj(avatarKeys(avatarId).matte),
      },
      audioUrl: "https://example.com/speech.mp3",
      backgroundUrl: "https://example.com/bg.webp",
      settings: {
        width: 640,
        height: 360,
        fit: "crop",
        backgroundColor: "#aabbcc",
        backgroundFit: "cover",
        leadInSeconds: 0,
        leadOutSeconds: 0,
      },
      outputs: { video: obj(videoKey(jobId)), matte: obj(avatarKeys(avatarId).matte) },
      // Audio over 2 minutes comes back as a split render (8 instances in wrangler.toml: at most 8 segments).
      split: { thresholdSeconds: 120, maxSegments: 8 },
    } satisfies VideoPayload);
    expect(await jobRow("video", jobId)).toMatchObject({ status: "processing", attempt: 1, stage: "starting" });
  });

  it("a revoked App fails the job app_access_revoked without rendering", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    expect((await adminFetch(`/apps/${acct.appId}`, { method: "DELETE" })).status).toBe(204);
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "video", jobId }]);
    expect(renderer.dispatches).toHaveLength(0);
    const row = (await jobRow("video", jobId))!;
    expect(row).toMatchObject({ status: "failed", error_code: "app_access_revoked", error_retryable: 1 });
    expect(row.completed_at).toBeTypeOf("number");
  });

  it("an Avatar no longer allowed (or deleted) fails the job avatar_forbidden without rendering", async () => {
    const owner = await createAccount();
    const user = await createAccount();
    const avatarId = await insertAvatar(owner.accountId, { isPublic: true });
    const jobId = await createVideoJob(user, avatarId);
    await env.DB.prepare("update avatars set is_public = 0 where id = ?").bind(avatarId).run();
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "video", jobId }]);
    expect(renderer.dispatches).toHaveLength(0);
    expect(await jobRow("video", jobId)).toMatchObject({ status: "failed", error_code: "avatar_forbidden" });
  });

  it("a job past its seven-day deadline is expired instead of dispatched", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await env.DB.prepare("update video_jobs set expires_at = ? where id = ?")
      .bind(Date.now() - 1, jobId)
      .run();
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "video", jobId }]);
    expect(renderer.dispatches).toHaveLength(0);
    expect((await jobRow("video", jobId))!.status).toBe("expired");
  });

  it("a stalled run on its last attempt fails render_failed (retryable) instead of another run", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    await env.DB.prepare("update video_jobs set status = 'processing', attempt = ?, heartbeat_at = ? where id = ?")
      .bind(MAX_ATTEMPTS, Date.now() - 120_000, jobId)
      .run();
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "video", jobId }]);
    expect(renderer.dispatches).toHaveLength(0);
    expect(await jobRow("video", jobId)).toMatchObject({
      status: "failed",
      error_code: "render_failed",
      error_retryable: 1,
    });
  });
});

describe("consumer: waiting for a renderer (issue 8)", () => {
  const readStage = async (acct: Awaited<ReturnType<typeof createAccount>>, jobId: string) => {
    const body = (await (await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers })).json()) as {
      job: { status: string; progress: { stage: string } };
    };
    return { status: body.job.status, stage: body.job.progress.stage };
  };

  it("a video the renderer cannot take (unreachable, then busy) reads queued / waiting_for_renderer, then starting once taken", async () => {
    const acct = await createAccount();
    const jobId = await createVideoJob(acct, await insertAvatar(acct.accountId));
    const renderer = fakeRenderer("down");
    // (The test env's own consumer already failed to reach its renderer: start again from a plain queued.)
    const reset = () =>
      env.DB.prepare("update video_jobs set stage = 'queued', updated_at = 0 where id = ?").bind(jobId).run();
    await reset();
    expect(await readStage(acct, jobId)).toEqual({ status: "queued", stage: "queued" });
    expect((await consume(renderer.env, [{ kind: "video", jobId }], 2)).retryMessages).toHaveLength(1);
    expect(await readStage(acct, jobId)).toEqual({ status: "queued", stage: "waiting_for_renderer" });
    expect((await jobRow("video", jobId))!.updated_at as number).toBeGreaterThan(0); // a visible change
    await reset();
    renderer.state.mode = "busy";
    expect((await consume(renderer.env, [{ kind: "video", jobId }], 3)).retryMessages).toHaveLength(1);
    expect(await readStage(acct, jobId)).toEqual({ status: "queued", stage: "waiting_for_renderer" });
    renderer.state.mode = "accept";
    await consume(renderer.env, [{ kind: "video", jobId }], 4);
    expect(await readStage(acct, jobId)).toEqual({ status: "processing", stage: "starting" });
    expect(renderer.dispatches.map((d) => d.payload.attempt)).toEqual([1]);
  });

  it("STALL_AFTER_SECONDS sets the stall threshold (5–60 s); unset keeps 30 s; anything else is refused by name", async () => {
    const acct = await createAccount();
    const jobId = await createAvatarJob(acct);
    const renderer = fakeRenderer();
    await consume(renderer.env, [{ kind: "avatar", jobId }]);
    await env.DB.prepare("update avatar_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 12_000, jobId)
      .run();
    // 12 s of silence: a live run for the default threshold...
    for (const setting of [undefined, ""]) {
      await consume({ ...renderer.env, STALL_AFTER_SECONDS: setting }, [{ kind: "avatar", jobId }], 2);
      expect(renderer.dispatches).toHaveLength(1);
    }
    // (an out-of-range setting is a configuration error, not a silent 30 s)...
    for (const setting of ["4", "61", "ten"]) {
      expect(() => staleHeartbeatMs({ STALL_AFTER_SECONDS: setting })).toThrow(
        `invalid configuration: STALL_AFTER_SECONDS must be an integer from 5 to 60 (got "${setting}")`,
      );
    }
    // ...a stalled one when tests shorten it to 10 s.
    await consume({ ...renderer.env, STALL_AFTER_SECONDS: "10" }, [{ kind: "avatar", jobId }], 2);
    expect(renderer.dispatches.map((d) => d.payload.attempt)).toEqual([1, 2]);
  });
});
