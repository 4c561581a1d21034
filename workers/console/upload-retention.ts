import { inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { consoleUploads } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { logEvent } from "../platform/logging/log-event";
import { UPLOAD_USABLE_MS } from "./uploads";

/**
 * Retention of console files (docs/console.md, "Uploads"), run by the cron sweep. Nothing is deleted that a
 * job could still read:
 * - a finished portrait/audio upload goes once it is past its usable window (no new job can name it) plus a
 *   grace hour, and no queued or processing job refers to its signed link;
 * - an unfinished upload (parts never completed) goes after 24 h, its R2 multipart upload aborted;
 * - an Avatar background replaced or removed in the console is recorded here (kind "background") and goes
 *   once no video job of that Avatar is queued or processing (a running render may hold its URL).
 * R2 objects go first, rows after: a failure halfway leaves the row, and the next run finishes the job.
 */

/** Past the usable window, so a form that picked the upload just before it closed still makes its job. */
export const UPLOAD_DELETE_AFTER_MS = UPLOAD_USABLE_MS + 60 * 60 * 1000;
/** Parts received but never completed. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
const BATCH = 50;

export interface UploadRetentionReport {
  uploadsDeleted: number;
  multipartAborted: number;
  backgroundsDeleted: number;
}

interface Doomed {
  id: string;
  key: string;
  multipartId: string | null;
}

const ACTIVE = `('queued', 'processing')`;
/**
 * A job's source URL names the upload as `/console/files/{id}?exp&sig` (uploads.ts, uploadSourceUrl).
 * instr, not LIKE: D1 caps LIKE patterns at 50 bytes.
 */
const names = (column: string) => `instr(${column}, '/console/files/' || u.id || '?') > 0`;

const FINISHED_UNUSED = `
  select u.id, u.key, u.multipart_id as multipartId from console_uploads u
  where u.kind in ('portrait', 'audio') and u.completed_at is not null and u.created_at < ?1
    and not exists (select 1 from avatar_jobs j where j.status in ${ACTIVE} and ${names("j.image_url")})
    and not exists (select 1 from video_jobs j where j.status in ${ACTIVE} and (${names("j.audio_url")} or ${names("j.background_url")}))
  order by u.created_at limit ${BATCH}`;

const ABANDONED = `
  select u.id, u.key, u.multipart_id as multipartId from console_uploads u
  where u.kind in ('portrait', 'audio') and u.completed_at is null and u.created_at < ?1
  order by u.created_at limit ${BATCH}`;

/** Background keys are `avatars/{avatarId}/background-…` (avatar-routes.tsx). */
const RETIRED_BACKGROUNDS = `
  select u.id, u.key, null as multipartId from console_uploads u
  where u.kind = 'background'
    and not exists (select 1 from video_jobs j where j.status in ${ACTIVE} and instr(u.key, 'avatars/' || j.avatar_id || '/') = 1)
  order by u.created_at limit ${BATCH}`;

async function select(env: Env, sql: string, ...binds: number[]): Promise<Doomed[]> {
  return (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Doomed>()
  ).results;
}

async function remove(env: Env, rows: Doomed[]): Promise<number> {
  if (!rows.length) return 0;
  let aborted = 0;
  for (const row of rows.filter((r) => r.multipartId)) {
    // Aborting an upload R2 already dropped fails; R2's own expiry of incomplete uploads (7 days) backs this up.
    const ok = await env.MEDIA.resumeMultipartUpload(row.key, row.multipartId!)
      .abort()
      .then(
        () => true,
        () => false,
      );
    if (ok) aborted++;
  }
  await env.MEDIA.delete(rows.map((r) => r.key));
  await drizzle(env.DB)
    .delete(consoleUploads)
    .where(
      inArray(
        consoleUploads.id,
        rows.map((r) => r.id),
      ),
    );
  return aborted;
}

/** One sweep pass: at most BATCH rows per rule; the rest is left for the next minute. */
export async function sweepConsoleUploads(env: Env, now: number = Date.now()): Promise<UploadRetentionReport> {
  const finished = await select(env, FINISHED_UNUSED, now - UPLOAD_DELETE_AFTER_MS);
  await remove(env, finished);
  const abandoned = await select(env, ABANDONED, now - ABANDONED_UPLOAD_MS);
  const multipartAborted = await remove(env, abandoned);
  const backgrounds = await select(env, RETIRED_BACKGROUNDS);
  await remove(env, backgrounds);
  const report = {
    uploadsDeleted: finished.length + abandoned.length,
    multipartAborted,
    backgroundsDeleted: backgrounds.length,
  };
  if (report.uploadsDeleted || report.backgroundsDeleted) logEvent("console_uploads_swept", { ...report });
  return report;
}

/**
 * A background replaced or removed in the console: its object stays until no video of the Avatar is queued
 * or processing (sweepConsoleUploads deletes it then), so a render that already holds its URL still reads it.
 */
export async function retireBackground(env: Env, accountId: string, key: string, now = new Date()): Promise<void> {
  await drizzle(env.DB).insert(consoleUploads).values({
    id: crypto.randomUUID(),
    accountId,
    kind: "background",
    key,
    contentType: "",
    size: 0,
    partSize: 0,
    multipartId: null,
    completedAt: now,
    createdAt: now,
  });
}
