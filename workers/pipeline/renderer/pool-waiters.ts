/**
 * The line (pool_waiters): video renders waiting for an instance, first come first served within each
 * account; the accounts with renders waiting take turns (pool-accounts.ts).
 */
import { changeAccount, nextTurn } from "./pool-accounts";
import type { HeldJob, RunRequest } from "./pool-jobs";
import { firstRow, type PoolSql } from "./pool-schema";

/** Renders of the same account counted ahead of one already waiting (Grant, pool-jobs.ts). */
const AHEAD_COUNTED = 100;

/**
 * A waiting render joins the end of its account's line; the account joins the round robin's end if it was out.
 * Returns how many renders of the account are ahead of it.
 */
export function enqueue(sql: PoolSql, req: RunRequest, now: number): number {
  const seq = firstRow<{ seq: number }>(sql, "SELECT seq FROM pool_waiters WHERE job_id = ?", req.jobId);
  if (seq) {
    const ahead = firstRow<{ n: number }>(
      sql,
      "SELECT count(*) AS n FROM (SELECT 1 FROM pool_waiters WHERE account_id = ? AND seq < ? LIMIT ?)",
      req.accountId,
      seq.seq,
      AHEAD_COUNTED,
    );
    return Number(ahead?.n);
  }
  sql.exec("INSERT INTO pool_waiters (job_id, account_id, since) VALUES (?, ?, ?)", req.jobId, req.accountId, now);
  const account = firstRow<{ waiting: number }>(
    sql,
    `INSERT INTO pool_accounts (account_id, waiting, turn) VALUES (?, 1, ?)
     ON CONFLICT (account_id) DO UPDATE SET waiting = waiting + 1,
       turn = CASE WHEN waiting = 0 THEN excluded.turn ELSE turn END
     RETURNING waiting`,
    req.accountId,
    nextTurn(sql),
  );
  return Number(account?.waiting) - 1;
}

/** The first two accounts with renders waiting: fewest running first, then in turn. */
export function nextInLine(sql: PoolSql): { accountId: string; running: number }[] {
  return sql
    .exec("SELECT account_id, running FROM pool_accounts WHERE waiting > 0 ORDER BY running, turn LIMIT 2")
    .map((r) => ({ accountId: String(r.account_id), running: Number(r.running) }));
}

/** The account's oldest waiting render leaves the line (its job id), and the account goes to the round robin's end. */
export function takeHead(sql: PoolSql, accountId: string): string {
  const head = firstRow<{ job_id: string }>(
    sql,
    "DELETE FROM pool_waiters WHERE seq = (SELECT seq FROM pool_waiters WHERE account_id = ? ORDER BY seq LIMIT 1) RETURNING job_id",
    accountId,
  );
  if (!head) throw new Error(`pool_accounts says ${accountId} waits, pool_waiters has none of its renders`);
  sql.exec("UPDATE pool_accounts SET waiting = waiting - 1, turn = ? WHERE account_id = ?", nextTurn(sql), accountId);
  return head.job_id;
}

/** The job leaves the line, if it waits there: false when it does not. */
export function leaveLine(sql: PoolSql, jobId: string): boolean {
  const waiter = firstRow<{ account_id: string }>(
    sql,
    "DELETE FROM pool_waiters WHERE job_id = ? RETURNING account_id",
    jobId,
  );
  if (!waiter) return false;
  changeAccount(sql, waiter.account_id, "waiting = waiting - 1");
  return true;
}

/**
 * For the sweep: the next `waiting` renders of the line after the previous call's last one (from the start
 * again once the end is reached), so a sweep reads a bounded page however long the line is.
 */
export function waitingPage(sql: PoolSql, waiting: number): HeldJob[] {
  const after = Number(
    firstRow<{ value: number }>(sql, "SELECT value FROM pool_meta WHERE key = 'check_after'")?.value,
  );
  const page = sql.exec(
    "SELECT seq, job_id, since FROM pool_waiters WHERE seq > ? ORDER BY seq LIMIT ?",
    after,
    waiting,
  );
  const next = page.length < waiting ? 0 : Number(page[page.length - 1].seq);
  sql.exec("UPDATE pool_meta SET value = ? WHERE key = 'check_after'", next);
  return page.map((r) => ({ kind: "video" as const, jobId: String(r.job_id), held: false, since: Number(r.since) }));
}
