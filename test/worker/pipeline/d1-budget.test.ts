import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { VideoPayload } from "../../../workers/pipeline/renderer/payload";
import { runSweep } from "../../../workers/pipeline/queue/sweep";
import type { Env } from "../../../workers/platform/env";
import { app } from "../../../workers/app";
import { consume, createAccount, fakeRenderer, insertAvatar, recordingQueue } from "../helpers/pipeline";

// D1's budget per video job (docs/operations.md, "Capacity: the database"): the queries one job costs from
// creation to expiry, counted at the D1 binding. A change that adds a query to any step fails here: update
// the figures below and the table in the docs together.

type Counts = { reads: number; writes: number };

/** The DB binding with every statement counted as it runs: SELECT (and WITH) reads, anything else a write. */
function countingD1(db: D1Database) {
  const counts: Counts = { reads: 0, writes: 0 };
  const real = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  const note = (sql: string) => {
    if (/^\s*(select|with)\b/i.test(sql)) counts.reads++;
    else counts.writes++;
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (["run", "all", "first", "raw"].includes(String(prop)))
          return (...args: unknown[]) => (note(sql), value.apply(target, args));
        return value.bind(target);
      },
    });
    real.set(wrapped, { statement, sql });
    return wrapped;
  };
  const binding = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          for (const s of statements) note(real.get(s)?.sql ?? "");
          return target.batch(statements.map((s) => real.get(s)?.statement ?? s));
        };
      if (prop === "exec") return (sql: string) => (counts.writes++, target.exec(sql));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  /** The counts since the last call. */
  const take = (): Counts => {
    const out = { ...counts };
    counts.reads = 0;
    counts.writes = 0;
    return out;
  };
  return { binding, take };
}

const local = (url: string) => url.replace("http://127.0.0.1:8787", "http://x");

async function call(testEnv: Env, url: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(url, init), testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("D1 budget of a video job", () => {
  it("counts the reads and writes of each step from creation to expiry", async () => {
    const acct = await createAccount();
    const avatarId = await insertAvatar(acct.accountId);
    const d1 = countingD1(env.DB);
    const queue = recordingQueue();
    const renderer = fakeRenderer();
    const counted: Env = { ...renderer.env, DB: d1.binding, JOBS: queue.binding };

    const created = await call(counted, "http://x/v1/open/videos", {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/json" },
      body: JSON.stringify({
        avatarId,
        audioUrl: "https://example.com/speech.mp3",
        video: { width: 512, height: 512 },
      }),
    });
    expect(created.status).toBe(200);
    const { jobId } = (await created.json()) as { jobId: string };
    const creation = d1.take();

    await consume(counted, [{ kind: "video", jobId }]);
    const dispatch = d1.take();
    const payload = renderer.dispatches[0].payload as VideoPayload;
    const auth = { authorization: `Bearer ${payload.token}` };
    const event = async (body: unknown) => {
      const res = await call(counted, local(payload.callbackUrl), {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(await res.json()).toEqual({ ok: true });
    };

    // The renderer's stages in order (container/src/runs/video-job.ts), and a heartbeat (the same stage
    // again, every 5 s of the run).
    const stages: Record<string, Counts> = {};
    for (const stage of ["preparing_media", "rendering", "encoding"]) {
      await event({ type: "progress", stage });
      stages[stage] = d1.take();
    }
    await event({ type: "progress", stage: "encoding" });
    const heartbeat = d1.take();
    await event({ type: "progress", stage: "uploading" });
    stages.uploading = d1.take();

    const mp4 = new Uint8Array(4096);
    const put = await call(counted, local(payload.outputs.video), {
      method: "PUT",
      headers: { ...auth, "content-length": String(mp4.length) },
      body: mp4,
    });
    expect(put.status).toBe(200);
    const upload = d1.take();
    await event({ type: "succeeded", result: { durationSeconds: 4.2 } });
    const success = d1.take();

    const read = await call(counted, `http://x/v1/open/video-jobs/${jobId}`, { headers: acct.headers });
    expect(read.status).toBe(200);
    const callerRead = d1.take();

    // Expiry: the sweep at the job's expiry ends it; a second run at the same time finds nothing to do, so
    // the difference is this job's share and the second run is what every minute costs anyway.
    const row = await env.DB.prepare("SELECT expires_at FROM video_jobs WHERE id = ?")
      .bind(jobId)
      .first<{ expires_at: number }>();
    const at = Number(row?.expires_at) + 1;
    const first = await runSweep(counted, at);
    expect(first.expired).toBe(1);
    const withJob = d1.take();
    await runSweep(counted, at);
    const sweepRun = d1.take();
    const expiry = { reads: withJob.reads - sweepRun.reads, writes: withJob.writes - sweepRun.writes };

    expect({ creation, dispatch, stages, heartbeat, upload, success, expiry }).toEqual({
      creation: { reads: 2, writes: 2 },
      dispatch: { reads: 4, writes: 1 },
      stages: {
        preparing_media: { reads: 1, writes: 1 },
        rendering: { reads: 3, writes: 1 }, // the account and the Avatar are checked again before the frames
        encoding: { reads: 1, writes: 1 },
        uploading: { reads: 1, writes: 1 },
      },
      heartbeat: { reads: 1, writes: 1 },
      upload: { reads: 1, writes: 0 },
      success: { reads: 1, writes: 1 },
      expiry: { reads: 0, writes: 1 },
    });
    // Not per job: a caller's status read, and the sweep's run every minute with nothing to do (one of its
    // reads looks for split renders' runs to re-send).
    expect({ callerRead, sweepRun }).toEqual({
      callerRead: { reads: 2, writes: 0 },
      sweepRun: { reads: 11, writes: 0 },
    });
  });
});
