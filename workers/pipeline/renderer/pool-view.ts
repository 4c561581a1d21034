import type { PoolSql } from "./pool-schema";
import type { PoolConfig } from "./pool-config";
import type { RunKind } from "./pool-jobs";

/** Accounts listed by the view, longest line first (the totals count them all). */
const ACCOUNTS_SHOWN = 100;

/** The pool as operators see it (`npm run admin -- pool`, GET /v1/admin/renderer-pool). Times in ms. */
export interface PoolView {
  instances: number;
  accountCap: number;
  /** Free instances kept for accounts with nothing running while others wait. */
  reserve: number;
  leases: { instance: number; kind: RunKind; jobId: string; accountId: string; heldMs: number }[];
  /** Renders running and waiting per account, with its oldest wait, for the ACCOUNTS_SHOWN longest lines. */
  accounts: { accountId: string; running: number; waiting: number; oldestWaitMs: number | null }[];
  waiting: number;
  accountsWaiting: number;
  oldestWaitMs: number | null;
}

/** Read-only; for operators, not for the dispatch path (it counts the whole line). */
export function poolView(sql: PoolSql, config: PoolConfig, now: number): PoolView {
  const leases = sql
    .exec("SELECT instance, kind, job_id, account_id, at FROM pool_leases ORDER BY instance, at")
    .map((r) => ({
      instance: Number(r.instance),
      kind: r.kind as RunKind,
      jobId: String(r.job_id),
      accountId: String(r.account_id),
      heldMs: now - Number(r.at),
    }));
  const accounts = sql
    .exec(
      `SELECT a.account_id, a.running, a.waiting,
         (SELECT since FROM pool_waiters w WHERE w.account_id = a.account_id ORDER BY seq LIMIT 1) AS oldest
       FROM pool_accounts a ORDER BY a.waiting DESC, a.running DESC LIMIT ?`,
      ACCOUNTS_SHOWN,
    )
    .map((r) => ({
      accountId: String(r.account_id),
      running: Number(r.running),
      waiting: Number(r.waiting),
      oldestWaitMs: r.oldest === null ? null : now - Number(r.oldest),
    }));
  const totals = sql.exec(
    "SELECT count(*) AS waiting, count(DISTINCT account_id) AS accounts, min(since) AS oldest FROM pool_waiters",
  )[0];
  return {
    instances: config.instances,
    accountCap: config.accountCap,
    reserve: config.reserve ?? 0,
    leases,
    accounts,
    waiting: Number(totals.waiting),
    accountsWaiting: Number(totals.accounts),
    oldestWaitMs: totals.oldest === null ? null : now - Number(totals.oldest),
  };
}
