import type { Admission } from "./admission";

/**
 * Unfinished console uploads of one account (R2 multipart uploads the browser is still sending). Each holds R2
 * storage until it completes or the sweep aborts it after 24 h, so an account may hold only a few at a time.
 * A slot is taken before the upload is created, freed on completion, and lapses with the upload's 24 h.
 */
export const MAX_OPEN_UPLOADS = 4;
export const OPEN_UPLOAD_LAPSE_MS = 24 * 60 * 60 * 1000;

function ensureTable(sql: SqlStorage) {
  sql.exec("CREATE TABLE IF NOT EXISTS open_uploads (id TEXT PRIMARY KEY, lapses_at INTEGER NOT NULL)");
}

export function admitUpload(sql: SqlStorage, uploadId: string, limit: number, now: number): Admission {
  ensureTable(sql);
  sql.exec("DELETE FROM open_uploads WHERE lapses_at <= ?", now);
  if (sql.exec("SELECT 1 FROM open_uploads WHERE id = ?", uploadId).toArray().length) return { ok: true };
  if (Number(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM open_uploads").one().n) >= limit) {
    return {
      ok: false,
      code: "rate_limit_exceeded",
      message: `Too many unfinished uploads: at most ${limit} at a time per account. Finish or abandon one (abandoned ones lapse after 24 hours), then retry.`,
      // Unknown when a running upload finishes: poll like a busy job.
      retryAfterSeconds: 10,
    };
  }
  sql.exec("INSERT OR IGNORE INTO open_uploads (id, lapses_at) VALUES (?, ?)", uploadId, now + OPEN_UPLOAD_LAPSE_MS);
  return { ok: true };
}

export function endUpload(sql: SqlStorage, uploadId: string): void {
  ensureTable(sql);
  sql.exec("DELETE FROM open_uploads WHERE id = ?", uploadId);
}

/** Bytes of console uploads an account may complete in any 24 hours (portraits, audio, backgrounds). */
export const MAX_UPLOAD_BYTES_PER_DAY = 5 * 1024 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

function ensureBytesTable(sql: SqlStorage) {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS upload_bytes (id TEXT PRIMARY KEY, bytes INTEGER NOT NULL, at INTEGER NOT NULL)",
  );
}

/** Completed bytes of the last 24 h, oldest first (after dropping older ones). */
function recentBytes(sql: SqlStorage, now: number) {
  ensureBytesTable(sql);
  sql.exec("DELETE FROM upload_bytes WHERE at <= ?", now - DAY_MS);
  return sql.exec<{ bytes: number; at: number }>("SELECT bytes, at FROM upload_bytes ORDER BY at").toArray();
}

/** Would `bytes` more fit today? A refusal says when enough of today's bytes leave the 24 h window. */
function bytesRoom(rows: { bytes: number; at: number }[], bytes: number, limit: number, now: number): Admission {
  const used = rows.reduce((n, r) => n + Number(r.bytes), 0);
  if (used + bytes <= limit) return { ok: true };
  let freed = 0;
  let at = now + DAY_MS;
  for (const r of rows) {
    freed += Number(r.bytes);
    if (used - freed + bytes <= limit) {
      at = Number(r.at) + DAY_MS;
      break;
    }
  }
  const mib = (n: number) => Math.round(n / 1024 / 1024);
  return {
    ok: false,
    code: "rate_limit_exceeded",
    message: `Daily upload volume reached: ${mib(used)} MiB of ${mib(limit)} MiB completed in the last 24 hours; this upload needs ${mib(bytes)} MiB more.`,
    retryAfterSeconds: Math.max(1, Math.ceil((at - now) / 1000)),
  };
}

/** Before an upload starts: would its declared size fit (nothing is counted until it completes)? */
export function checkUploadBytes(sql: SqlStorage, bytes: number, limit: number, now: number): Admission {
  return bytesRoom(recentBytes(sql, now), bytes, limit, now);
}

/** An upload completes: its bytes count for 24 h, or it is refused (atomically with the check). Idempotent per id. */
export function completeUploadBytes(
  sql: SqlStorage,
  uploadId: string,
  bytes: number,
  limit: number,
  now: number,
): Admission {
  const rows = recentBytes(sql, now);
  if (sql.exec("SELECT 1 FROM upload_bytes WHERE id = ?", uploadId).toArray().length) return { ok: true };
  const room = bytesRoom(rows, bytes, limit, now);
  if (room.ok) sql.exec("INSERT INTO upload_bytes (id, bytes, at) VALUES (?, ?, ?)", uploadId, bytes, now);
  return room;
}
