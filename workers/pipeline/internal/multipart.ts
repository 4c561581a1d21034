import type { Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { fromBase64Url, toBase64Url } from "../../platform/crypto/base64url";
import { apiError, invalid } from "../../platform/http/errors";
import { readJsonBody } from "../../platform/http/validation";
import { sign, verify } from "../../platform/crypto/hmac";
import { forgetRunUpload, recordRunUpload, type RunUpload } from "../jobs/run-uploads";

/**
 * Multipart upload of one job output (docs/renderer.md "Events and objects"), S3-style on the
 * object's own URL, after the same scope checks as a plain PUT (token, current attempt → else 409, key):
 *
 *   POST   …/objects/{key}?job&attempt&uploads                body {size, partBytes} → {uploadId, partBytes, parts}
 *   PUT    …/objects/{key}?job&attempt&uploadId=U&partNumber=N  Content-Length    → {partNumber, etag}
 *   POST   …/objects/{key}?job&attempt&uploadId=U               body {parts}      → {ok, key, size}
 *   DELETE …/objects/{key}?job&attempt&uploadId=U                                 → {ok}
 *
 * Rules: no request body above MAX_REQUEST_BYTES (the platform's limit); parts of `partBytes` (5 MiB …
 * 100 MiB, R2 wants equal parts) except the last, which holds the rest; at most 10,000 parts. The plan
 * (R2 upload id, key, size, part size) travels signed inside the upload id, so every part is checked
 * against it. Each upload is also recorded for its run (jobs/run-uploads.ts) until the run completes or
 * abandons it, so the sweep can abort the uploads of runs that are fenced or ended.
 */

const MiB = 1024 * 1024;
export const MAX_REQUEST_BYTES = 100 * MiB;
export const MIN_PART_BYTES = 5 * MiB;
const MAX_PARTS = 10_000;

interface Plan {
  /** R2's upload id. */
  u: string;
  k: string;
  size: number;
  part: number;
}

const partCount = (p: Plan) => Math.ceil(p.size / p.part);
const partLength = (p: Plan, n: number) => (n < partCount(p) ? p.part : p.size - p.part * (partCount(p) - 1));
const PURPOSE = "multipart-upload:";

async function encodePlan(secret: string, plan: Plan): Promise<string> {
  const body = toBase64Url(new TextEncoder().encode(JSON.stringify(plan)));
  return `${body}.${await sign(secret, PURPOSE + body)}`;
}

async function decodePlan(c: Context<AppEnv>, key: string): Promise<Plan> {
  const [body, mac] = (c.req.query("uploadId") ?? "").split(".");
  const bytes = body ? fromBase64Url(body) : null;
  if (!bytes || !(await verify(c.env.SIGNING_SECRET, PURPOSE + body, mac)))
    throw invalid("uploadId is not an upload id issued for this object.");
  const plan = JSON.parse(new TextDecoder().decode(bytes)) as Plan;
  if (plan.k !== key) throw invalid("uploadId is not an upload id issued for this object.");
  return plan;
}

async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const body = await readJsonBody(c);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("The body must be a JSON object.");
  return body as Record<string, unknown>;
}

/** The run an upload belongs to. */
export type UploadRun = Omit<RunUpload, "uploadId" | "key">;

/** POST ?uploads — starts an upload of `size` bytes in parts of `partBytes`. */
export async function createUpload(
  c: Context<AppEnv>,
  key: string,
  maxBytes: number,
  contentType: string,
  run: UploadRun,
) {
  const { size, partBytes } = await jsonBody(c);
  if (!Number.isSafeInteger(size) || (size as number) < 1) throw invalid("size must be a positive integer (bytes).");
  if ((size as number) > maxBytes)
    throw apiError("invalid_request", `The object is ${size} bytes; at most ${maxBytes} are accepted for this key.`, {
      status: 413,
    });
  if (
    !Number.isSafeInteger(partBytes) ||
    (partBytes as number) < MIN_PART_BYTES ||
    (partBytes as number) > MAX_REQUEST_BYTES
  ) {
    throw invalid(`partBytes must be an integer from ${MIN_PART_BYTES} (5 MiB) to ${MAX_REQUEST_BYTES} (100 MiB).`);
  }
  const plan: Plan = { u: "", k: key, size: size as number, part: partBytes as number };
  if (partCount(plan) > MAX_PARTS) throw invalid(`size / partBytes must be at most ${MAX_PARTS} parts.`);
  const upload = await c.env.MEDIA.createMultipartUpload(key, { httpMetadata: { contentType } });
  plan.u = upload.uploadId;
  try {
    await recordRunUpload(c.env, { ...run, uploadId: upload.uploadId, key });
  } catch (err) {
    await upload.abort().catch(() => {}); // unrecorded, nothing could abort it later
    throw err;
  }
  return c.json({
    uploadId: await encodePlan(c.env.SIGNING_SECRET, plan),
    partBytes: plan.part,
    parts: partCount(plan),
  });
}

/** PUT ?uploadId&partNumber — one part, exactly as long as the plan says, streamed to R2. */
export async function uploadPart(c: Context<AppEnv>, key: string) {
  const plan = await decodePlan(c, key);
  const n = Number(c.req.query("partNumber"));
  if (!Number.isInteger(n) || n < 1 || n > partCount(plan))
    throw invalid(`partNumber must be an integer from 1 to ${partCount(plan)}.`);
  const length = Number(c.req.header("content-length") ?? NaN);
  if (!Number.isSafeInteger(length))
    throw apiError("invalid_request", "Content-Length is required to store a part.", { status: 411 });
  const want = partLength(plan, n);
  if (length !== want)
    throw invalid(`Part ${n} of ${partCount(plan)} must be ${want} bytes (Content-Length is ${length}).`);
  const body = c.req.raw.body;
  if (!body) throw invalid("The part body is empty.");
  const sized = new FixedLengthStream(length);
  const upload = c.env.MEDIA.resumeMultipartUpload(key, plan.u);
  const [, part] = await Promise.all([body.pipeTo(sized.writable), upload.uploadPart(n, sized.readable)]);
  return c.json({ partNumber: part.partNumber, etag: part.etag });
}

/** POST ?uploadId — every part 1…N, in order, with the etags R2 gave; the object appears whole. */
export async function completeUpload(c: Context<AppEnv>, key: string) {
  const plan = await decodePlan(c, key);
  const { parts } = await jsonBody(c);
  const count = partCount(plan);
  const ok =
    Array.isArray(parts) &&
    parts.length === count &&
    parts.every(
      (p, i) => p?.partNumber === i + 1 && typeof p?.etag === "string" && p.etag.length > 0 && p.etag.length < 200,
    );
  if (!ok) throw invalid(`parts must list parts 1 to ${count} in order, each with the etag its upload returned.`);
  let size: number;
  try {
    size = (await c.env.MEDIA.resumeMultipartUpload(key, plan.u).complete(parts as R2UploadedPart[])).size;
  } catch (err) {
    throw invalid(`The upload could not be completed: ${(err as Error).message.slice(0, 200)}`);
  }
  await forgetRunUpload(c.env, plan.u);
  if (size !== plan.size) {
    await c.env.MEDIA.delete(key);
    throw invalid(`The parts hold ${size} bytes, not the ${plan.size} announced.`);
  }
  return c.json({ ok: true, key, size });
}

/** DELETE ?uploadId — gives up (parts are discarded). */
export async function abortUpload(c: Context<AppEnv>, key: string) {
  const plan = await decodePlan(c, key);
  await c.env.MEDIA.resumeMultipartUpload(key, plan.u)
    .abort()
    .catch(() => {}); // already completed or aborted: nothing left to discard
  await forgetRunUpload(c.env, plan.u);
  return c.json({ ok: true });
}
