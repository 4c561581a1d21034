import { and, eq, isNotNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { consoleUploads, type ConsoleUpload } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { backgroundBaseUrl } from "../platform/http/base-url";
import { invalid, notFound } from "../platform/http/errors";
import { sha256Hex } from "../platform/crypto/digest";
import { sign, verify } from "../platform/crypto/hmac";
import { isIssuedUuid } from "../platform/http/uuid";
import { admissionError, limiterFor, MAX_UPLOAD_BYTES_PER_DAY } from "../accounts/public";

/**
 * Files uploaded in the console (portraits, audio) live in R2 under `console-uploads/{accountId}/{id}/…`
 * and reach the renderer as a signed URL of this Worker (`/console/files/{id}?exp&sig`), fetched through
 * the renderer's SSRF-safe fetcher like any other source. The Open API stays URL-only.
 */
export const MiB = 1024 * 1024;
export const MAX_AUDIO_BYTES = 500 * MiB;
/** R2 multipart: every part but the last ≥ 5 MiB and all the same size. */
export const PART_SIZE = 8 * MiB;
/** The spec's audio Content-Types (Media rules), with the extension stored on the key. */
export const AUDIO_TYPES: Record<string, string> = {
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/vnd.wave": "wav",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/ogg": "ogg",
};
/**
 * An upload can be named by a new job for 24 h; the sweep deletes it later, once no active job uses it
 * (upload-retention.ts). Its signed URL outlives the longest a job made in that window can wait for it
 * (1 day + unresolved submissions expire after 7 days).
 */
export const UPLOAD_USABLE_MS = 24 * 60 * 60 * 1000;
const LINK_TTL_MS = 8 * 24 * 60 * 60 * 1000;

const linkMessage = (id: string, exp: number) => `console-upload-v1\nGET\n${id}\n${exp}`;

export async function newUpload(
  env: Env,
  o: {
    id?: string;
    accountId: string;
    kind: ConsoleUpload["kind"];
    contentType: string;
    size: number;
    ext: string;
    partSize?: number;
  },
): Promise<ConsoleUpload> {
  const id = o.id ?? crypto.randomUUID();
  const row: ConsoleUpload = {
    id,
    accountId: o.accountId,
    kind: o.kind,
    key: `console-uploads/${o.accountId}/${id}/${o.kind}.${o.ext}`,
    contentType: o.contentType,
    size: o.size,
    partSize: o.partSize ?? o.size,
    multipartId: null,
    completedAt: null,
    createdAt: new Date(),
  };
  await drizzle(env.DB).insert(consoleUploads).values(row);
  return row;
}

/**
 * A small file in one piece (portraits, and audio sent by a form without scripts). Its bytes count against the
 * account's daily upload volume before anything is stored (429 past it).
 */
export async function storeWhole(
  env: Env,
  accountId: string,
  kind: ConsoleUpload["kind"],
  bytes: ArrayBuffer,
  contentType: string,
  ext: string,
) {
  const id = crypto.randomUUID();
  const counted = await limiterFor(env, accountId).completeUploadBytes(id, bytes.byteLength, MAX_UPLOAD_BYTES_PER_DAY);
  if (!counted.ok) throw admissionError(counted);
  const upload = await newUpload(env, { id, accountId, kind, contentType, size: bytes.byteLength, ext });
  await env.MEDIA.put(upload.key, bytes, { httpMetadata: { contentType } });
  await drizzle(env.DB).update(consoleUploads).set({ completedAt: new Date() }).where(eq(consoleUploads.id, upload.id));
  return { ...upload, completedAt: new Date() };
}

/** An upload a refused request stored: object and row go at once (nothing is kept past a refusal). */
export async function discardUpload(env: Env, upload: Pick<ConsoleUpload, "id" | "key">): Promise<void> {
  await env.MEDIA.delete(upload.key);
  await drizzle(env.DB).delete(consoleUploads).where(eq(consoleUploads.id, upload.id));
}

/** SHA-256 (hex) of an uploaded file: what a retry fingerprint sees instead of the upload's own URL. */
export async function contentHash(bytes: ArrayBuffer): Promise<string> {
  return sha256Hex(bytes);
}

export async function findUpload(env: Env, accountId: string, id: string): Promise<ConsoleUpload> {
  const row = isIssuedUuid(id)
    ? await drizzle(env.DB)
        .select()
        .from(consoleUploads)
        .where(and(eq(consoleUploads.id, id), eq(consoleUploads.accountId, accountId)))
        .get()
    : undefined;
  if (!row) throw notFound(`Upload ${id.slice(0, 36)} was not found`);
  return row;
}

/** A finished audio upload of the account, for a video. */
export async function completedAudio(
  env: Env,
  accountId: string,
  id: string,
  now = Date.now(),
): Promise<ConsoleUpload> {
  const row = await findUpload(env, accountId, id);
  if (row.kind !== "audio" || !row.completedAt)
    throw invalid("audioUploadId must name a finished audio upload; upload the file again");
  if (row.createdAt.getTime() + UPLOAD_USABLE_MS <= now)
    throw invalid("audioUploadId names an upload older than 24 hours; upload the file again");
  return row;
}

/** The renderer-facing source URL. Deterministic per upload, so resubmitting a form gives the same input. */
export async function uploadSourceUrl(env: Env, upload: ConsoleUpload): Promise<string> {
  const exp = Math.floor((upload.createdAt.getTime() + LINK_TTL_MS) / 1000);
  const sig = await sign(env.SIGNING_SECRET, linkMessage(upload.id, exp));
  return `${backgroundBaseUrl(env)}/console/files/${upload.id}?exp=${exp}&sig=${sig}`;
}

/** The upload behind a signed URL, or null (bad or expired signature, unfinished upload). */
export async function uploadForLink(
  env: Env,
  id: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
) {
  if (!/^[0-9a-f-]{36}$/.test(id) || !exp || !/^\d{1,12}$/.test(exp) || Number(exp) * 1000 <= now) return null;
  if (!(await verify(env.SIGNING_SECRET, linkMessage(id, Number(exp)), sig))) return null;
  return (
    (await drizzle(env.DB)
      .select()
      .from(consoleUploads)
      .where(and(eq(consoleUploads.id, id), isNotNull(consoleUploads.completedAt)))
      .get()) ?? null
  );
}
