/**
 * The renderer pool's tables (pool-accounts.ts, pool-leases.ts and pool-waiters.ts use them). Every question
 * a grant or a release asks is answered by an index: the next account by (renders running, turn) among
 * accounts with renders waiting, its oldest render by (account, arrival), the free instance by (renders, runs,
 * last busy). So each costs a few B-tree lookups, whatever the line's length.
 */

export type SqlValue = string | number | null;
export type SqlRow = Record<string, unknown>;

/**
 * One statement with its bound values, and the rows it returns. The Durable Object passes
 * `ctx.storage.sql.exec(…).toArray()` (pool-object.ts), the bench and its tests Node's own SQLite.
 */
export interface PoolSql {
  exec(query: string, ...params: SqlValue[]): SqlRow[];
}

export const POOL_SCHEMA = [
  // The round-robin counter ('turn') and the sweep's place in the line ('check_after').
  "CREATE TABLE IF NOT EXISTS pool_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
  "INSERT OR IGNORE INTO pool_meta (key, value) VALUES ('turn', 0), ('check_after', 0)",
  // last_busy: when the instance last held a run (-1: never here), to tell a warm instance from a sleeping one.
  `CREATE TABLE IF NOT EXISTS pool_instances (
     instance INTEGER PRIMARY KEY, runs INTEGER NOT NULL DEFAULT 0, renders INTEGER NOT NULL DEFAULT 0,
     last_busy INTEGER NOT NULL DEFAULT -1)`,
  "CREATE INDEX IF NOT EXISTS pool_instances_free ON pool_instances (renders, runs, last_busy DESC, instance)",
  "CREATE INDEX IF NOT EXISTS pool_instances_load ON pool_instances (runs, last_busy DESC, instance)",
  `CREATE TABLE IF NOT EXISTS pool_leases (
     job_id TEXT PRIMARY KEY, kind TEXT NOT NULL, account_id TEXT NOT NULL, instance INTEGER NOT NULL,
     at INTEGER NOT NULL, idle_ms INTEGER)`,
  // seq: arrival order (each account is served first come, first served).
  `CREATE TABLE IF NOT EXISTS pool_waiters (
     seq INTEGER PRIMARY KEY, job_id TEXT NOT NULL UNIQUE, account_id TEXT NOT NULL, since INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS pool_waiters_account ON pool_waiters (account_id, seq)",
  // running: video renders holding an instance; turn: place in the round robin (lower is served first).
  `CREATE TABLE IF NOT EXISTS pool_accounts (
     account_id TEXT PRIMARY KEY, running INTEGER NOT NULL DEFAULT 0, waiting INTEGER NOT NULL DEFAULT 0,
     turn INTEGER NOT NULL DEFAULT 0)`,
  "CREATE INDEX IF NOT EXISTS pool_accounts_next ON pool_accounts (running, turn) WHERE waiting > 0",
];

export function createPoolTables(sql: PoolSql): void {
  for (const statement of POOL_SCHEMA) sql.exec(statement);
}

/** The first row `query` returns, if any. */
export function firstRow<T>(sql: PoolSql, query: string, ...params: SqlValue[]): T | undefined {
  return sql.exec(query, ...params)[0] as (SqlRow & T) | undefined;
}
