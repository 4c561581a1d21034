import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, type Account, type JobCreator } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { admissionError, limiterFor } from "../../accounts/public";
import { enqueueJob } from "../../pipeline/public";

/** Default name of a job (and of the Avatar it creates) when the request gives none. */
export const defaultAvatarName = (jobId: string) => `Avatar ${jobId.slice(0, 8)}`;

export interface AvatarJobInput {
  account: Account;
  creator: JobCreator;
  name?: string;
  imageUrl: string;
}

/**
 * One Avatar creation, for POST /v1/open/avatars and the console alike: admission (windows, concurrency,
 * one unit reserved) in the account's DO, then the queued row, then the queue message (a lost send is
 * re-sent by the sweep). Throws the admission refusal as its ApiError.
 */
export async function createAvatarJob(env: Env, input: AvatarJobInput): Promise<{ jobId: string; status: "queued" }> {
  const { account, creator } = input;
  const jobId = crypto.randomUUID();
  const now = Date.now();
  const limiter = limiterFor(env, account.id);
  const admission = await limiter.admitAvatarCreation(jobId, account.limits.avatar, now);
  if (!admission.ok) throw admissionError(admission);
  try {
    await drizzle(env.DB)
      .insert(avatarJobs)
      .values({
        id: jobId,
        accountId: account.id,
        ...creator,
        name: input.name ?? defaultAvatarName(jobId),
        status: "queued",
        imageUrl: input.imageUrl,
        unitState: "reserved",
        createdAt: new Date(now),
        updatedAt: new Date(now),
      });
  } catch (err) {
    // Not stored: give the slot and the unit back at once (reconciliation would, after its grace period).
    await limiter.finishAvatarJob(jobId).catch(() => undefined);
    throw err;
  }
  await enqueueJob(env, { kind: "avatar", jobId });
  return { jobId, status: "queued" };
}
