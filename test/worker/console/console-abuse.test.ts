import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES_PER_DAY } from "../../../workers/accounts/console-uploads";
import { consoleUploads } from "../../../workers/platform/db/schema";
import { createAccount } from "../helpers/accounts";
import { ConsoleClient, pngFile, signedIn } from "../helpers/console";
import { db, type Envelope } from "../helpers/open-fixtures";

// Issue 24, point 4: console bodies are capped before any parsing, parts need a length, and an account holds
// only a few unfinished uploads.

describe("console body caps (before anything parses a body)", () => {
  const stream = (bytes: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent < bytes; sent += 16 * 1024)
          controller.enqueue(new Uint8Array(Math.min(16 * 1024, bytes - sent)).fill(97));
        controller.close();
      },
    });

  it("signed-out sign-in: a body over 64 KiB is refused 413 whether declared or streamed", async () => {
    const c = new ConsoleClient();
    await c.page("/console/sign-in");
    const declared = await c.fetch("/console/sign-in", { form: { email: "a@b.co", password: "x".repeat(70 * 1024) } });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as Envelope).error).toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("at most 65536 bytes"),
    });
    const streamed = await c.fetch("/console/sign-in", {
      body: stream(200 * 1024),
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      csrf: false,
    });
    expect(streamed.status).toBe(413);
  });

  it("signed in: a form over its cap is 413; an upload part needs Content-Length (411) and is capped at the part size", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/apps");
    expect((await client.fetch("/console/apps", { form: { name: "x".repeat(70 * 1024) } })).status).toBe(413);
    const up = (await (
      await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 10 } })
    ).json()) as { uploadId: string };
    const noLength = await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
      method: "PUT",
      body: stream(10),
    });
    expect(noLength.status).toBe(411);
    expect(((await noLength.json()) as Envelope).error.message).toContain("Content-Length is required");
    const huge = await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
      method: "PUT",
      body: new Uint8Array(8 * 1024 * 1024 + 1),
    });
    expect(huge.status).toBe(413);
  });
});

describe("console unfinished uploads per account", () => {
  it("an account holds at most 4 unfinished uploads: the 5th is 429 with Retry-After and nothing is made; completing one frees a slot", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const start = () => client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 10 } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(((await (await start()).json()) as { uploadId: string }).uploadId);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: unknown }).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringContaining("at most 4"),
    });
    expect(await db().select().from(consoleUploads).where(eq(consoleUploads.accountId, a.accountId))).toHaveLength(4);
    const part = (await (
      await client.fetch(`/console/api/uploads/${ids[0]}/parts/1`, { method: "PUT", body: new Uint8Array(10) })
    ).json()) as { partNumber: number; etag: string };
    expect((await client.fetch(`/console/api/uploads/${ids[0]}/complete`, { json: { parts: [part] } })).status).toBe(
      200,
    );
    expect((await start()).status).toBe(201);
  });
});

describe("console upload volume per account per day", () => {
  const limiter = (accountId: string) => env.ACCOUNT_LIMITER.getByName(accountId);

  it("completed uploads count their bytes for 24 h; past the volume the next is refused with when it frees up", async () => {
    const stub = env.ACCOUNT_LIMITER.getByName(`bytes-${crypto.randomUUID()}`);
    const t0 = 1_000_000;
    expect(await stub.completeUploadBytes("a", 600, 1000, t0)).toEqual({ ok: true });
    expect(await stub.completeUploadBytes("a", 600, 1000, t0 + 1)).toEqual({ ok: true }); // the same upload again
    expect(await stub.checkUploadBytes(400, 1000, t0 + 2)).toEqual({ ok: true });
    const refused = await stub.completeUploadBytes("b", 500, 1000, t0 + 60_000);
    expect(refused).toMatchObject({ ok: false, code: "rate_limit_exceeded" });
    expect(refused.ok ? 0 : refused.retryAfterSeconds).toBe(24 * 3600 - 60);
    expect(await stub.completeUploadBytes("b", 500, 1000, t0 + 24 * 3600_000 + 1)).toEqual({ ok: true });
  });

  it("a full day refuses console uploads before anything is stored: audio in parts, portraits", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await limiter(a.accountId).completeUploadBytes("earlier", MAX_UPLOAD_BYTES_PER_DAY - 10, MAX_UPLOAD_BYTES_PER_DAY);
    const big = await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 5000 } });
    expect(big.status).toBe(429);
    expect(((await big.json()) as Envelope).error.message).toContain("Daily upload volume reached");
    expect(Number(big.headers.get("Retry-After"))).toBeGreaterThan(0);
    await client.page("/console/avatars");
    const portrait = await client.fetch("/console/avatars", { form: { portrait: pngFile(800, 800), name: "x" } });
    expect(portrait.status).toBe(429);
    expect(await portrait.text()).toContain("Daily upload volume reached");
    expect(await db().select().from(consoleUploads).where(eq(consoleUploads.accountId, a.accountId))).toHaveLength(0);
    // A small upload still fits, and completes.
    const small = await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 10 } });
    expect(small.status).toBe(201);
  });

  it("an upload that no longer fits when it completes is discarded (R2 parts, row, slot)", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { uploadId } = (await (
      await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 10 } })
    ).json()) as { uploadId: string };
    const part = (await (
      await client.fetch(`/console/api/uploads/${uploadId}/parts/1`, { method: "PUT", body: new Uint8Array(10) })
    ).json()) as { partNumber: number; etag: string };
    await limiter(a.accountId).completeUploadBytes("meanwhile", MAX_UPLOAD_BYTES_PER_DAY, MAX_UPLOAD_BYTES_PER_DAY);
    const done = await client.fetch(`/console/api/uploads/${uploadId}/complete`, { json: { parts: [part] } });
    expect(done.status).toBe(429);
    expect(await db().select().from(consoleUploads).where(eq(consoleUploads.accountId, a.accountId))).toHaveLength(0);
  });
});
