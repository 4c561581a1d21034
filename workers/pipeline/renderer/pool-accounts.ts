/**
 * The pool's accounts (pool_accounts): video renders running and waiting per account, and its turn in the
 * round robin of the line (pool-waiters.ts). An account with nothing running and nothing waiting has no row.
 */
import { firstRow, type PoolSql } from "./pool-schema";

/** The round robin's next turn: later than every turn given so far. */
export function nextTurn(sql: PoolSql): number {
  return Number(
    firstRow<{ value: number }>(sql, "UPDATE pool_meta SET value = value + 1 WHERE key = 'turn' RETURNING value")
      ?.value,
  );
}

/** One more render running for the account (its row created when missing). */
export function addRunning(sql: PoolSql, accountId: string): void {
  sql.exec(
    "INSERT INTO pool_accounts (account_id, running) VALUES (?, 1) ON CONFLICT (account_id) DO UPDATE SET running = running + 1",
    accountId,
  );
}

/** An account with nothing running and nothing waiting leaves the table (and its turn). */
export function changeAccount(
  sql: PoolSql,
  accountId: string,
  change: "running = running - 1" | "waiting = waiting - 1",
): void {
  const left = firstRow<{ running: number; waiting: number }>(
    sql,
    `UPDATE pool_accounts SET ${change} WHERE account_id = ? RETURNING running, waiting`,
    accountId,
  );
  if (left && left.running <= 0 && left.waiting <= 0)
    sql.exec("DELETE FROM pool_accounts WHERE account_id = ?", accountId);
}
