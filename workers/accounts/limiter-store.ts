/**
 * The limiter object's SQLite tables and the small helpers every limit kind shares. All calls are synchronous
 * (no await between a read and the write it decides), which is what makes each admission atomic.
 */
import { DAY_MS } from "./creations/windows";

/** Settled reservations and retry-key claims are kept this long (D1 stays the long-term record). */
const KEEP_SETTLED_MS = 30 * DAY_MS;

export function createTables(sql: SqlStorage): void {
  sql.exec(`
    CREATE TABLE IF NOT EXISTS creations (family TEXT NOT NULL, job_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (family, job_id));
    CREATE INDEX IF NOT EXISTS creations_family_at ON creations (family, at);
    CREATE TABLE IF NOT EXISTS active_avatar_jobs (job_id TEXT PRIMARY KEY, since INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS reservations (job_id TEXT PRIMARY KEY, state TEXT NOT NULL, reserved_at INTEGER NOT NULL, settled_at INTEGER);
    CREATE INDEX IF NOT EXISTS reservations_state ON reservations (state);
    CREATE TABLE IF NOT EXISTS video_claims (request_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, fingerprint TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
}

export function count(sql: SqlStorage, query: string, ...bindings: (string | number)[]): number {
  return Number(sql.exec<{ n: number }>(query, ...bindings).one().n);
}

export function readMeta(sql: SqlStorage, key: string): string | undefined {
  return sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
}

export function writeMeta(sql: SqlStorage, key: string, value: string): void {
  sql.exec(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

/** Drops what no window, reservation or retry-key lookup can need any more. */
export function prune(sql: SqlStorage, now: number): void {
  sql.exec("DELETE FROM creations WHERE at <= ?", now - DAY_MS);
  sql.exec("DELETE FROM reservations WHERE state != 'reserved' AND settled_at <= ?", now - KEEP_SETTLED_MS);
  sql.exec("DELETE FROM video_claims WHERE created_at <= ?", now - KEEP_SETTLED_MS);
}
