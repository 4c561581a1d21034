/** Test seams for the pipeline: a fake renderer behind the RENDERER binding, a recording queue, job fixtures. */
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import type { Env } from "../../../workers/platform/env";
import { jobToken, type JobKind } from "../../../workers/pipeline/jobs/tokens";
import type { JobMessage } from "../../../workers/pipeline/queue/messages";
import { consumeJobs } from "../../../workers/pipeline/queue/consumer";
import type { RendererPayload } from "../../../workers/pipeline/renderer/payload";
import { avatarKeys } from "../../../workers/platform/storage/keys";
import { createAccount, openFetch, type TestAccount } from "./accounts";

export type RendererMode = "accept" | "down" | "busy" | "reject";

/**
 * The production adapter's seam: RENDERER_URL empty and a RENDERER namespace whose instances record every
 * dispatch (and answer as `mode` says). Everything else is the real test env.
 */
export function fakeRenderer(initial: RendererMode = "accept") {
  const dispatches: { instance: string; payload: RendererPayload; authorization: string | null }[] = [];
  const state = { mode: initial };
  const namespace = {
    getByName: (instance: string) => ({
      fetch: async (_url: string, init: RequestInit) => {
        if (state.mode === "down") throw new Error("connect ECONNREFUSED");
        if (state.mode === "busy") return new Response("busy", { status: 503 });
        if (state.mode === "reject") return new Response("bad payload", { status: 400 });
        dispatches.push({
          instance,
          payload: JSON.parse(String(init.body)),
          authorization: new Headers(init.headers).get("authorization"),
        });
        return new Response(null, { status: 202 });
      },
    }),
  };
  const testEnv: Env = { ...env, RENDERER_URL: "", RENDERER: namespace as unknown as Env["RENDERER"] };
  return { env: testEnv, dispatches, state };
}

/** A JOBS binding that records what is sent instead of delivering it. */
export function recordingQueue() {
  const sent: JobMessage[] = [];
  const binding = {
    send: async (body: JobMessage) => void sent.push(body),
    sendBatch: async (msgs: { body: JobMessage }[]) => void sent.push(...msgs.map((m) => m.body)),
  } as unknown as Queue<JobMessage>;
  return { binding, sent };
}

let msgSeq = 0;
/** Runs the real consumer on one batch and returns the ack/retry result. */
export async function consume(testEnv: Env, bodies: JobMessage[], attempts = 1) {
  const batch = createMessageBatch<JobMessage>(
    "avatar-video-jobs",
    bodies.map((body) => ({ id: `m${++msgSeq}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await consumeJobs(batch, testEnv, ctx);
  return getQueueResult(batch, ctx);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Row = Record<string, unknown>;
export const jobRow = (kind: JobKind, id: string) =>
  env.DB.prepare(`select * from ${kind === "avatar" ? "avatar_jobs" : "video_jobs"} where id = ?`)
    .bind(id)
    .first<Row>();

/**
 * POST /avatars. The test env's own queue consumer also receives the message and dispatches it to the stub
 * renderer of vitest.config.ts, which answers "busy": wait until it has given the job back to the
 * queue so the test controls what happens next.
 */
export async function createAvatarJob(acct: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const res = await openFetch("/avatars", {
    headers: acct.headers,
    body: { imageUrl: "https://example.com/face.jpg", name: "Ada", ...body },
  });
  if (res.status !== 200) throw new Error(`POST /avatars: ${res.status} ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  await settleBackgroundDelivery("avatar", jobId);
  return jobId;
}

/**
 * Waits for the background consumer's first delivery to end (job queued again, attempt unchanged, its
 * enqueuedAt restamped). Its next delivery comes 10 s later at the earliest (retry backoff).
 */
export async function settleBackgroundDelivery(kind: JobKind, jobId: string) {
  const first = await jobRow(kind, jobId);
  for (let i = 0; i < 100; i++) {
    const row = await jobRow(kind, jobId);
    if (row && row.status === "queued" && row.enqueued_at !== first?.enqueued_at) return;
    await sleep(50);
  }
  throw new Error(`the test env's queue consumer did not handle job ${jobId} within 5 s`);
}

/** An Avatar row (with its R2 artifacts) owned by `accountId`, as the avatar pipeline leaves it. */
export async function insertAvatar(accountId: string, opts: { isPublic?: boolean; background?: boolean } = {}) {
  const id = crypto.randomUUID();
  const keys = avatarKeys(id);
  const now = Date.now();
  const backgroundKey = opts.background ? `avatars/${id}/background.png` : null;
  await env.DB.prepare(
    `insert into avatars (id, account_id, name, origin, is_public, portrait_key, rig_key, cover_key, background_key, created_at, updated_at)
     values (?, ?, 'Fixture', 'api', ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(id, accountId, opts.isPublic ? 1 : 0, keys.portrait, keys.rig, keys.cover, backgroundKey, now, now)
    .run();
  await env.MEDIA.put(keys.portrait, new Uint8Array([137, 80, 78, 71]));
  await env.MEDIA.put(keys.rig, JSON.stringify({ version: 1 }));
  await env.MEDIA.put(keys.cover, new Uint8Array([255, 216, 255, 224]));
  if (backgroundKey) await env.MEDIA.put(backgroundKey, new Uint8Array([1, 2, 3]));
  return id;
}

/** POST /videos for an Avatar; waits out the background consumer like createAvatarJob. */
export async function createVideoJob(
  acct: TestAccount,
  avatarId: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await openFetch("/videos", {
    headers: acct.headers,
    body: { avatarId, audioUrl: "https://example.com/speech.mp3", ...body },
  });
  if (res.status !== 200) throw new Error(`POST /videos: ${res.status} ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  await settleBackgroundDelivery("video", jobId);
  return jobId;
}

/**
 * Puts a job in `processing` at `attempt` with a fresh heartbeat, as a dispatch would. Attempt numbers
 * above the background consumer's (which only ever claims 0 → 1) keep it out of the way.
 */
export async function startRun(kind: JobKind, jobId: string, attempt = 5, heartbeatAgoMs = 0) {
  const table = kind === "avatar" ? "avatar_jobs" : "video_jobs";
  await env.DB.prepare(`update ${table} set status = 'processing', attempt = ?, heartbeat_at = ? where id = ?`)
    .bind(attempt, Date.now() - heartbeatAgoMs, jobId)
    .run();
}

/** Renderer → Worker event with the run's token. */
export async function postEvent(kind: JobKind, jobId: string, attempt: number, event: unknown, token?: string) {
  const bearer = token ?? (await jobToken(env, kind, jobId, attempt));
  return SELF.fetch(`http://x/internal/jobs/${jobId}/events?attempt=${attempt}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(event),
  });
}

/** Renderer → Worker object transfer with the run's token. */
export async function objectRequest(
  kind: JobKind,
  jobId: string,
  attempt: number,
  method: "GET" | "PUT",
  key: string,
  body?: Uint8Array | string,
  token?: string,
) {
  const bearer = token ?? (await jobToken(env, kind, jobId, attempt));
  return SELF.fetch(`http://x/internal/objects/${key}?job=${jobId}&attempt=${attempt}`, {
    method,
    headers: { authorization: `Bearer ${bearer}` },
    body,
  });
}

export { createAccount };
