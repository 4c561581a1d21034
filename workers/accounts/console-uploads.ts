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
