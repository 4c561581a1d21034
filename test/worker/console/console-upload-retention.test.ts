import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { avatarJobs, avatars, consoleUploads } from "../../../workers/platform/db/schema";
import {
  ABANDONED_UPLOAD_MS,
  sweepConsoleUploads,
  UPLOAD_DELETE_AFTER_MS,
} from "../../../workers/console/upload-retention";
import { uploadSourceUrl } from "../../../workers/console/uploads";
import worker from "../../../workers/index";
import { createAccount } from "../helpers/accounts";
import { type ConsoleClient, pngFile, signedIn } from "../helpers/console";
import { db, insertAvatar, insertVideoJob } from "../helpers/open-fixtures";

const HOUR = 60 * 60 * 1000;
const MiB = 1024 * 1024;

// The sweep logs one line per pass that deleted something: keep the test output quiet.
beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const uploadRow = (id: string) => db().select().from(consoleUploads).where(eq(consoleUploads.id, id)).get();
const setStatus = (table: "avatar_jobs" | "video_jobs", id: string, status: string) =>
  env.DB.prepare(`update ${table} set status = ? where id = ?`).bind(status, id).run();
const uploadIdOf = (url: string) => /\/console\/files\/([0-9a-f-]{36})\?/.exec(url)![1]!;

/** A finished audio upload made through the console's upload API (two 8 MiB parts would be slow: one small part). */
async function audioUpload(client: ConsoleClient) {
  const up = (await (
    await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 1000 } })
  ).json()) as { uploadId: string };
  const part = (await (
    await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
      method: "PUT",
      body: new Uint8Array(1000).fill(7),
    })
  ).json()) as object;
  expect((await client.fetch(`/console/api/uploads/${up.uploadId}/complete`, { json: { parts: [part] } })).status).toBe(
    200,
  );
  return (await uploadRow(up.uploadId))!;
}

describe("console upload retention", () => {
  it("a portrait is kept while its Avatar job is queued or processing, then deleted (row and object) once the job ended", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    expect(
      (await client.fetch("/console/avatars", { form: { portrait: pngFile(800, 800), name: "Kept" } })).status,
    ).toBe(303);
    const job = (await db().select().from(avatarJobs).where(eq(avatarJobs.accountId, a.accountId)).get())!;
    const upload = (await uploadRow(uploadIdOf(job.imageUrl)))!;
    const later = upload.createdAt.getTime() + UPLOAD_DELETE_AFTER_MS + 1;
    expect(await env.MEDIA.head(upload.key)).not.toBeNull();
    for (const status of ["queued", "processing"]) {
      await setStatus("avatar_jobs", job.id, status);
      await sweepConsoleUploads(env, later);
      expect(await uploadRow(upload.id), status).toBeDefined();
      expect(await env.MEDIA.head(upload.key), status).not.toBeNull();
    }
    await setStatus("avatar_jobs", job.id, "failed");
    // Still inside its usable window: a new job could name it, so it stays.
    await sweepConsoleUploads(env, upload.createdAt.getTime() + 2 * HOUR);
    expect(await uploadRow(upload.id)).toBeDefined();
    await sweepConsoleUploads(env, later);
    expect(await uploadRow(upload.id)).toBeUndefined();
    expect(await env.MEDIA.head(upload.key)).toBeNull();
    const link = new URL(job.imageUrl);
    expect((await client.fetch(link.pathname + link.search)).status).toBe(403);
  });

  it("an audio upload is kept while a video job reads it and deleted once that job succeeded; unused ones go too", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const used = await audioUpload(client);
    const unused = await audioUpload(client);
    const avatarId = await insertAvatar(a.accountId);
    const jobId = await insertVideoJob(a.accountId, avatarId, {
      status: "processing",
      audioUrl: await uploadSourceUrl(env, used),
    });
    const later = unused.createdAt.getTime() + UPLOAD_DELETE_AFTER_MS + 1;
    const first = await sweepConsoleUploads(env, later);
    expect(first.uploadsDeleted).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(used.id)).toBeDefined();
    expect(await env.MEDIA.head(used.key)).not.toBeNull();
    expect(await uploadRow(unused.id)).toBeUndefined();
    expect(await env.MEDIA.head(unused.key)).toBeNull();
    await setStatus("video_jobs", jobId, "succeeded");
    await sweepConsoleUploads(env, later);
    expect(await uploadRow(used.id)).toBeUndefined();
    expect(await env.MEDIA.head(used.key)).toBeNull();
  });

  it("an upload older than 24 hours cannot be named by a new video (so the sweep never deletes one a job is about to use)", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const upload = await audioUpload(client);
    await env.DB.prepare("update console_uploads set created_at = ? where id = ?")
      .bind(Date.now() - 24 * HOUR - 1000, upload.id)
      .run();
    const avatarId = await insertAvatar(a.accountId);
    const res = await client.fetch("/console/videos", {
      form: {
        avatarId,
        audioUploadId: upload.id,
        width: "1024",
        height: "1024",
        leadInSeconds: "0",
        leadOutSeconds: "0",
      },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("audioUploadId names an upload older than 24 hours; upload the file again");
  });

  it("an unfinished multipart upload is aborted after 24 h: row gone, parts gone", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const up = (await (
      await client.fetch("/console/api/uploads", { json: { contentType: "audio/mpeg", size: 8 * MiB + 10 } })
    ).json()) as { uploadId: string };
    const part = (await (
      await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
        method: "PUT",
        body: new Uint8Array(8 * MiB),
      })
    ).json()) as { etag: string };
    const row = (await uploadRow(up.uploadId))!;
    expect(row.multipartId).toBeTruthy();
    await sweepConsoleUploads(env, row.createdAt.getTime() + ABANDONED_UPLOAD_MS - HOUR);
    expect(await uploadRow(up.uploadId)).toBeDefined();
    const report = await sweepConsoleUploads(env, row.createdAt.getTime() + ABANDONED_UPLOAD_MS + 1);
    expect(report.multipartAborted).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(up.uploadId)).toBeUndefined();
    // The R2 multipart upload no longer exists: its received part cannot be completed into an object.
    const mpu = env.MEDIA.resumeMultipartUpload(row.key, row.multipartId!);
    await expect(mpu.complete([{ partNumber: 1, etag: part.etag }])).rejects.toThrow();
    expect(await env.MEDIA.head(row.key)).toBeNull();
    // The page's script gets a 404 for the forgotten upload, not a 500.
    expect(
      (await client.fetch(`/console/api/uploads/${up.uploadId}/parts/2`, { method: "PUT", body: new Uint8Array(10) }))
        .status,
    ).toBe(404);
  });

  it("the cron sweep runs the retention", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/videos");
    const upload = await audioUpload(client);
    // The Worker's scheduled handler (the cron trigger), which runs the job sweep and this retention beside it.
    const ctx = createExecutionContext();
    worker.scheduled(
      createScheduledController({ scheduledTime: upload.createdAt.getTime() + UPLOAD_DELETE_AFTER_MS + 1 }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(await uploadRow(upload.id)).toBeUndefined();
    expect(await env.MEDIA.head(upload.key)).toBeNull();
  });
});

describe("replaced Avatar backgrounds", () => {
  it("the old image stays while a video of the Avatar is queued or processing, and is deleted after; the current one stays", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const avatarId = await insertAvatar(a.accountId);
    const otherAvatar = await insertAvatar(a.accountId);
    await client.page(`/console/avatars/${avatarId}`);
    const backgroundKey = async () =>
      (await db().select().from(avatars).where(eq(avatars.id, avatarId)).get())!.backgroundKey!;
    expect(
      (await client.fetch(`/console/avatars/${avatarId}/background`, { form: { background: pngFile(1920, 1080) } }))
        .status,
    ).toBe(303);
    const first = await backgroundKey();
    const jobId = await insertVideoJob(a.accountId, avatarId, { status: "processing" });
    expect(
      (await client.fetch(`/console/avatars/${avatarId}/background`, { form: { background: pngFile(1280, 720) } }))
        .status,
    ).toBe(303);
    const second = await backgroundKey();
    expect(second).not.toBe(first);
    // Replaced while a render may hold its URL: still there, now and after sweeps.
    expect(await env.MEDIA.head(first)).not.toBeNull();
    for (const status of ["processing", "queued"]) {
      await setStatus("video_jobs", jobId, status);
      await sweepConsoleUploads(env);
      expect(await env.MEDIA.head(first), status).not.toBeNull();
    }
    // Another Avatar's running video does not hold it.
    await insertVideoJob(a.accountId, otherAvatar, { status: "processing" });
    await setStatus("video_jobs", jobId, "failed");
    const report = await sweepConsoleUploads(env);
    expect(report.backgroundsDeleted).toBeGreaterThanOrEqual(1);
    expect(await env.MEDIA.head(first)).toBeNull();
    expect(await env.MEDIA.head(second)).not.toBeNull();
    expect(await db().select().from(consoleUploads).where(eq(consoleUploads.key, first))).toEqual([]);
  });

  it("a removed background follows the same rule", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const avatarId = await insertAvatar(a.accountId);
    await client.page(`/console/avatars/${avatarId}`);
    expect(
      (await client.fetch(`/console/avatars/${avatarId}/background`, { form: { background: pngFile(1920, 1080) } }))
        .status,
    ).toBe(303);
    const key = (await db().select().from(avatars).where(eq(avatars.id, avatarId)).get())!.backgroundKey!;
    const jobId = await insertVideoJob(a.accountId, avatarId, { status: "queued" });
    expect((await client.fetch(`/console/avatars/${avatarId}/background/remove`, { form: {} })).status).toBe(303);
    await sweepConsoleUploads(env);
    expect(await env.MEDIA.head(key)).not.toBeNull();
    await setStatus("video_jobs", jobId, "expired");
    await sweepConsoleUploads(env);
    expect(await env.MEDIA.head(key)).toBeNull();
  });
});
