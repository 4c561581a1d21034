import { and, eq } from "drizzle-orm";
import { avatarJobs, type AvatarJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { limiterFor } from "../../accounts/public";
import { db } from "./store";
import { logEvent } from "../../platform/logging/log-event";

// Avatar Creation units. D1 is the record (unitState), written first; the account's limiter follows. Both
// steps are idempotent by job id, so a replayed event or a second attempt never captures twice, and a
// limiter call that fails is repeated by the renderer's retry or corrected by the sweep's reconcile.

/** Preprocessing completed: the reserved unit is captured (no-op when already captured or released). */
export async function captureUnit(env: Env, job: Pick<AvatarJob, "id" | "accountId">): Promise<void> {
  await db(env)
    .update(avatarJobs)
    .set({ unitState: "captured" })
    .where(and(eq(avatarJobs.id, job.id), eq(avatarJobs.unitState, "reserved")));
  await limiterFor(env, job.accountId).captureAvatarUnit(job.id);
}

/** The job ended: free its concurrency slot (and its unit if still reserved). Failures are left to reconcile. */
export async function finishAvatarSlot(env: Env, job: Pick<AvatarJob, "id" | "accountId">): Promise<void> {
  try {
    await limiterFor(env, job.accountId).finishAvatarJob(job.id);
  } catch (err) {
    logEvent("limiter_finish_failed", { jobId: job.id, error: err }, "error");
  }
}
