import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { consoleUploads } from "../platform/db/schema";
import { invalid } from "../platform/http/errors";
import { MAX_OPEN_UPLOADS, MAX_UPLOAD_BYTES_PER_DAY, admissionError, limiterFor } from "../accounts/public";
import type { ConsoleEnv } from "./context";
import { jsonBody, openApiApp } from "../platform/http/openapi-app";
import { jsonInput } from "../platform/http/validation";
import { AUDIO_TYPES, discardUpload, findUpload, MAX_AUDIO_BYTES, newUpload, PART_SIZE } from "./uploads";
import { okJson } from "../platform/http/route-parts";

/**
 * Audio uploads in parts (≤ 500 MiB): the browser creates an upload, PUTs 8 MiB parts, then completes it.
 * Parts go through the Worker into an R2 multipart upload (docs/console.md, "Uploads").
 */
const UploadId = z.object({ uploadId: z.uuid() });

const createUpload = createRoute({
  method: "post",
  path: "/",
  summary: "Start an audio upload",
  middleware: [jsonInput()] as const,
  request: {
    body: jsonBody(
      z
        .object({
          contentType: z.string().max(100),
          size: z
            .number()
            .int()
            .min(1)
            .max(MAX_AUDIO_BYTES, { error: `must be at most ${MAX_AUDIO_BYTES} bytes (500 MiB)` }),
        })
        .strict(),
    ),
  },
  responses: {
    201: okJson("Upload started", z.object({ uploadId: z.string(), partSize: z.number(), parts: z.number() })),
  },
});

const putPart = createRoute({
  method: "put",
  path: "/{uploadId}/parts/{partNumber}",
  summary: "Send one part (exactly partSize bytes, except the last)",
  request: { params: UploadId.extend({ partNumber: z.coerce.number().int().min(1).max(10_000) }) },
  responses: { 200: okJson("Part stored", z.object({ partNumber: z.number(), etag: z.string() })) },
});

const completeUpload = createRoute({
  method: "post",
  path: "/{uploadId}/complete",
  summary: "Finish the upload",
  middleware: [jsonInput()] as const,
  request: {
    params: UploadId,
    body: jsonBody(
      z
        .object({
          parts: z
            .array(z.object({ partNumber: z.number().int().min(1), etag: z.string().max(200) }))
            .min(1)
            .max(10_000),
        })
        .strict(),
    ),
  },
  responses: { 200: okJson("Upload complete", z.object({ uploadId: z.string(), size: z.number() })) },
});

const partCount = (size: number, partSize: number) => Math.ceil(size / partSize);

export const uploadApi = openApiApp<ConsoleEnv>()
  .openapi(createUpload, async (c) => {
    const { contentType, size } = c.req.valid("json");
    const type = contentType.split(";")[0]!.trim().toLowerCase();
    const ext = AUDIO_TYPES[type];
    if (!ext)
      throw invalid(
        `contentType must be one of ${Object.keys(AUDIO_TYPES).join(", ")} (got ${JSON.stringify(type.slice(0, 60))})`,
      );
    const accountId = c.get("session").account.id;
    // Each unfinished upload holds R2 storage for up to 24 h: the account's object meters them before any is made.
    const id = crypto.randomUUID();
    const limiter = limiterFor(c.env, accountId);
    // The day's completed bytes are metered too (counted on completion): refuse now what could not complete.
    const room = await limiter.checkUploadBytes(size, MAX_UPLOAD_BYTES_PER_DAY, Date.now());
    if (!room.ok) throw admissionError(room);
    const admission = await limiter.admitUpload(id, MAX_OPEN_UPLOADS, Date.now());
    if (!admission.ok) throw admissionError(admission);
    const upload = await newUpload(c.env, {
      id,
      accountId,
      kind: "audio",
      contentType: type,
      size,
      ext,
      partSize: PART_SIZE,
    });
    const mpu = await c.env.MEDIA.createMultipartUpload(upload.key, { httpMetadata: { contentType: type } });
    await drizzle(c.env.DB)
      .update(consoleUploads)
      .set({ multipartId: mpu.uploadId })
      .where(eq(consoleUploads.id, upload.id));
    return c.json({ uploadId: upload.id, partSize: PART_SIZE, parts: partCount(size, PART_SIZE) }, 201);
  })
  .openapi(putPart, async (c) => {
    const { uploadId, partNumber } = c.req.valid("param");
    const upload = await findUpload(c.env, c.get("session").account.id, uploadId);
    if (!upload.multipartId || upload.completedAt)
      throw invalid(`upload ${uploadId} is not accepting parts (already complete)`);
    const parts = partCount(upload.size, upload.partSize);
    if (partNumber > parts) throw invalid(`partNumber must be at most ${parts} for a ${upload.size}-byte upload`);
    const expected = partNumber < parts ? upload.partSize : upload.size - upload.partSize * (parts - 1);
    const declared = Number(c.req.header("Content-Length"));
    if (Number.isFinite(declared) && declared !== expected)
      throw invalid(`part ${partNumber} must be exactly ${expected} bytes (got ${declared})`);
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength !== expected)
      throw invalid(`part ${partNumber} must be exactly ${expected} bytes (got ${bytes.byteLength})`);
    const part = await c.env.MEDIA.resumeMultipartUpload(upload.key, upload.multipartId).uploadPart(partNumber, bytes);
    return c.json({ partNumber: part.partNumber, etag: part.etag }, 200);
  })
  .openapi(completeUpload, async (c) => {
    const { uploadId } = c.req.valid("param");
    const upload = await findUpload(c.env, c.get("session").account.id, uploadId);
    if (upload.completedAt) return c.json({ uploadId, size: upload.size }, 200);
    if (!upload.multipartId) throw invalid(`upload ${uploadId} has no parts to complete`);
    const parts = [...c.req.valid("json").parts].sort((a, b) => a.partNumber - b.partNumber);
    const want = partCount(upload.size, upload.partSize);
    if (parts.length !== want || parts.some((p, i) => p.partNumber !== i + 1))
      throw invalid(`parts must list partNumber 1 to ${want}, each once`);
    const mpu = c.env.MEDIA.resumeMultipartUpload(upload.key, upload.multipartId);
    const limiter = limiterFor(c.env, upload.accountId);
    const counted = await limiter.completeUploadBytes(upload.id, upload.size, MAX_UPLOAD_BYTES_PER_DAY, Date.now());
    if (!counted.ok) {
      // Over the day's volume (other uploads completed meanwhile): nothing of this one is kept.
      await mpu.abort().catch(() => {});
      await discardUpload(c.env, upload);
      await limiter.endUpload(upload.id);
      throw admissionError(counted);
    }
    await mpu.complete(parts).catch(() => {
      throw invalid(
        "parts do not match what was uploaded (a part is missing or its etag differs); upload the file again",
      );
    });
    const head = await c.env.MEDIA.head(upload.key);
    if (!head || head.size !== upload.size) {
      await c.env.MEDIA.delete(upload.key);
      throw invalid(`the uploaded file has ${head?.size ?? 0} bytes, not the declared ${upload.size}; upload it again`);
    }
    await drizzle(c.env.DB)
      .update(consoleUploads)
      .set({ completedAt: new Date(), multipartId: null })
      .where(eq(consoleUploads.id, upload.id));
    await limiter.endUpload(upload.id);
    return c.json({ uploadId, size: upload.size }, 200);
  });
