import type { Admission } from "../admission";

/**
 * Image checks of one account in flight on the renderers. A renderer holds a few waiting check slots shared by
 * every account; capping each account's checks in flight keeps one account (a looping upload form, a script)
 * from filling them all and starving the others. A slot is freed when the check answers, or lapses after the
 * longest a check can take.
 */
export const CHECKS_IN_FLIGHT_PER_ACCOUNT = 2;
const CHECK_LAPSE_MS = 60_000;

function ensureTable(sql: SqlStorage) {
  sql.exec("CREATE TABLE IF NOT EXISTS checks_in_flight (id TEXT PRIMARY KEY, lapses_at INTEGER NOT NULL)");
}

export function checkSlotRefusal(sql: SqlStorage, now: number): Admission | null {
  ensureTable(sql);
  sql.exec("DELETE FROM checks_in_flight WHERE lapses_at <= ?", now);
  const open = Number(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM checks_in_flight").one().n);
  if (open < CHECKS_IN_FLIGHT_PER_ACCOUNT) return null;
  return {
    ok: false,
    code: "concurrency_limit_exceeded",
    message: `Too many image checks in progress: the limit is ${CHECKS_IN_FLIGHT_PER_ACCOUNT} at a time per account. Retry after 5 seconds.`,
    retryAfterSeconds: 5,
  };
}

export function takeCheckSlot(sql: SqlStorage, checkId: string, now: number): void {
  ensureTable(sql);
  sql.exec("INSERT OR IGNORE INTO checks_in_flight (id, lapses_at) VALUES (?, ?)", checkId, now + CHECK_LAPSE_MS);
}

export function endCheckSlot(sql: SqlStorage, checkId: string): void {
  ensureTable(sql);
  sql.exec("DELETE FROM checks_in_flight WHERE id = ?", checkId);
}
