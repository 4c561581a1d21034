import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AvatarPayload, RendererPayload, VideoPayload } from "../../../workers/pipeline/renderer/payload";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import { getAccount, openFetch } from "../helpers/accounts";
import {
  consume,
  createAccount,
  createAvatarJob,
  createVideoJob,
  fakeRenderer,
  jobRow,
  recordingQueue,
} from "../helpers/pipeline";

// The Worker's side of both pipelines end to end: the API, the queue consumer, a renderer that talks to
// the Worker only through the URLs and token of its dispatch payload, the sweep.

/** Payload URLs name the public base (http://127.0.0.1:8787 in tests); the test reaches the Worker as SELF. */
const local = (url: string) => url.replace("http://127.0.0.1:8787", "http://x");

function rendererSide(payload: RendererPayload) {
  const auth = { authorization: `Bearer ${payload.token}` };
  return {
    event: async (event: unknown) =>
      (
        await SELF.fetch(local(payload.callbackUrl), {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify(event),
        })
      ).json(),
    put: async (url: string, body: Uint8Array | string) =>
      (await SELF.fetch(local(url), { method: "PUT", headers: auth, body })).status,
    get: async (url: string) => SELF.fetch(local(url), { headers: auth }),
  };
}

async function runAvatar(payload: AvatarPayload, opts: { dieAfterPreprocessing?: boolean } = {}) {
  const r = rendererSide(payload);
  await r.event({ type: "progress", stage: "downloading" });
  await r.event({ type: "progress", stage: "analyzing_face" });
  expect(await r.put(payload.outputs.portrait, new Uint8Array([137, 80, 78, 71, 1]))).toBe(200);
  expect(await r.put(payload.outputs.rig, JSON.stringify({ version: 1 }))).toBe(200);
  await r.event({ type: "progress", stage: "preprocessed" });
  if (opts.dieAfterPreprocessing) return;
  expect(await r.put(payload.outputs.cover, new Uint8Array([255, 216, 255, 9]))).toBe(200);
  expect(await r.event({ type: "succeeded", result: { faces: 1 } })).toEqual({ ok: true });
}

describe("pipeline", () => {
  it("photo → Avatar → video → signed MP4 link, through the API", async () => {
    const acct = await createAccount({ avatarUnits: 10 });
    const renderer = fakeRenderer();

    // Avatar creation
    const avatarJobId = await createAvatarJob(acct, { name: "Grace" });
    await consume(renderer.env, [{ kind: "avatar", jobId: avatarJobId }]);
    const avatarPayload = renderer.dispatches[0].payload as AvatarPayload;
    const processing = (await (await openFetch(`/avatar-jobs/${avatarJobId}`, { headers: acct.headers })).json()) as {
      job: Record<string, unknown>;
    };
    expect(processing.job.status).toBe("processing");
    expect(processing.job.avatarId).toBeUndefined();
    await runAvatar(avatarPayload);
    const done = (await (await openFetch(`/avatar-jobs/${avatarJobId}`, { headers: acct.headers })).json()) as {
      job: Record<string, string>;
    };
    expect(done.job.status).toBe("succeeded");
    const avatarId = done.job.avatarId;
    const list = (await (await openFetch("/avatars", { headers: acct.headers })).json()) as {
      avatars: { id: string; coverUrl: string }[];
    };
    expect(list.avatars.map((a) => a.id)).toEqual([avatarId]);
    const cover = await SELF.fetch(list.avatars[0].coverUrl);
    expect(new Uint8Array(await cover.arrayBuffer())).toEqual(new Uint8Array([255, 216, 255, 9]));
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 9, reservedAvatarUnits: 0 });

    // Video
    const videoJobId = await createVideoJob(acct, avatarId, { name: "Hello", video: { width: 512, height: 512 } });
    await consume(renderer.env, [{ kind: "video", jobId: videoJobId }]);
    const videoPayload = renderer.dispatches[1].payload as VideoPayload;
    const r = rendererSide(videoPayload);
    await r.event({ type: "progress", stage: "preparing_media" });
    const portrait = await r.get(videoPayload.avatar.portrait);
    expect(new Uint8Array(await portrait.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71, 1]));
    expect(await (await r.get(videoPayload.avatar.rig)).json()).toEqual({ version: 1 });
    const midway = (await (await openFetch(`/video-jobs/${videoJobId}`, { headers: acct.headers })).json()) as {
      job: Record<string, unknown>;
    };
    expect(midway.job).toMatchObject({ status: "processing", progress: { stage: "preparing_media" } });
    expect(await r.event({ type: "progress", stage: "rendering" })).toEqual({ ok: true });
    await r.event({ type: "progress", stage: "encoding" });
    const mp4 = new Uint8Array(4096).map((_, i) => (i * 7) % 256);
    expect(await r.put(videoPayload.outputs.video, mp4)).toBe(200);
    await r.event({ type: "succeeded", result: { durationSeconds: 4.2 } });

    const detail = (await (await openFetch(`/video-jobs/${videoJobId}`, { headers: acct.headers })).json()) as {
      job: Record<string, unknown>;
      videoUrl: string;
      videoUrlExpiresAt: string;
    };
    expect(detail.job).toMatchObject({ status: "succeeded", progress: { stage: "completed" } });
    expect(detail.job.completedAt).toBeTypeOf("string");
    const download = await SELF.fetch(detail.videoUrl);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(mp4);
    const jobs = (await (await openFetch("/video-jobs", { headers: acct.headers })).json()) as {
      jobs: Record<string, unknown>[];
    };
    expect(jobs.jobs[0].id).toBe(videoJobId);
    expect(JSON.stringify(jobs)).not.toContain("/v1/media/");
    // Nothing internal leaks into job views.
    expect(JSON.stringify(detail.job)).not.toMatch(/internal|videos\/|example\.com/);
  }, 30_000);

  it("a renderer killed after preprocessing: the sweep dispatches again, the job ends with one Avatar and one unit", async () => {
    const acct = await createAccount({ avatarUnits: 2 });
    const renderer = fakeRenderer();
    const queue = recordingQueue();
    const testEnv = { ...renderer.env, JOBS: queue.binding };
    const jobId = await createAvatarJob(acct);
    await consume(testEnv, [{ kind: "avatar", jobId }]);
    await runAvatar(renderer.dispatches[0].payload as AvatarPayload, { dieAfterPreprocessing: true });
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });

    // Silence for over a minute: the sweep sends the job again, the consumer starts attempt 2.
    await env.DB.prepare("update avatar_jobs set heartbeat_at = ? where id = ?")
      .bind(Date.now() - 70_000, jobId)
      .run();
    await runSweep(testEnv, Date.now());
    await consume(testEnv, queue.sent);
    expect(renderer.dispatches.map((d) => d.payload.attempt)).toEqual([1, 2]);
    const second = renderer.dispatches[1].payload as AvatarPayload;
    // Same Avatar keys on every attempt.
    expect(second.outputs).toEqual(
      Object.fromEntries(
        Object.entries((renderer.dispatches[0].payload as AvatarPayload).outputs).map(([k, v]) => [
          k,
          v.replace("attempt=1", "attempt=2"),
        ]),
      ),
    );
    await runAvatar(second);
    expect(await jobRow("avatar", jobId)).toMatchObject({ status: "succeeded", unit_state: "captured" });
    const count = await env.DB.prepare("select count(*) as n from avatars where account_id = ?")
      .bind(acct.accountId)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
    expect(await getAccount(acct.accountId)).toMatchObject({ avatarUnits: 1, reservedAvatarUnits: 0 });
    // The first run, if it comes back to life, is told to stop.
    const ghost = rendererSide(renderer.dispatches[0].payload);
    expect(await ghost.event({ type: "progress", stage: "rendering" })).toMatchObject({
      ignored: true,
      abort: { code: "superseded" },
    });
  }, 30_000);
});
