import { and, eq, gte, inArray, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { limiterFor } from "../limiter-client";
import type { ReconcileResult } from "./align-with-d1";

const CHUNK = 90; // D1 binds at most 100 parameters per statement

/**
 * Aligns an account's limiter with D1: looks up every job the limiter holds open (active or with a reserved
 * unit) plus every job D1 shows active, and tells the limiter what D1 says. A succeeded job's unit counts as
 * captured; a failed job whose unit is still reserved in D1 counts as released (the failure came before
 * preprocessing completed, or the pipeline never settled it: the caller is not charged).
 */
export async function reconcileAccount(env: Env, accountId: string, now = Date.now()): Promise<ReconcileResult> {
  const limiter = limiterFor(env, accountId);
  const open = await limiter.listOpenJobs();
  const db = drizzle(env.DB);
  const ids = [...new Set([...open.active, ...open.reserved])];
  const cols = { id: avatarJobs.id, status: avatarJobs.status, unitState: avatarJobs.unitState };
  const rows = await db
    .select(cols)
    .from(avatarJobs)
    .where(and(eq(avatarJobs.accountId, accountId), inArray(avatarJobs.status, ["queued", "processing"])))
    .all();
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(
      ...(await db
        .select(cols)
        .from(avatarJobs)
        .where(and(eq(avatarJobs.accountId, accountId), inArray(avatarJobs.id, ids.slice(i, i + CHUNK))))
        .all()),
    );
  }
  const activeAvatarJobs = new Set<string>();
  const capturedJobs = new Set<string>();
  const releasedJobs = new Set<string>();
  for (const r of rows) {
    if (r.status === "queued" || r.status === "processing") activeAvatarJobs.add(r.id);
    if (r.unitState === "captured" || r.status === "succeeded") capturedJobs.add(r.id);
    else if (r.unitState === "released" || r.status === "failed" || r.status === "expired") releasedJobs.add(r.id);
  }
  return limiter.reconcile(
    { activeAvatarJobs: [...activeAvatarJobs], capturedJobs: [...capturedJobs], releasedJobs: [...releasedJobs] },
    now,
  );
}

/** For the scheduled sweep: reconciles every account with an Avatar job active or changed since `sinceMs`. */
export async function reconcileRecentAccounts(env: Env, now = Date.now(), sinceMs = 15 * 60_000): Promise<number> {
  const accounts = await drizzle(env.DB)
    .selectDistinct({ accountId: avatarJobs.accountId })
    .from(avatarJobs)
    .where(or(inArray(avatarJobs.status, ["queued", "processing"]), gte(avatarJobs.updatedAt, new Date(now - sinceMs))))
    .all();
  for (const { accountId } of accounts) await reconcileAccount(env, accountId, now);
  return accounts.length;
}
