import { eq } from "drizzle-orm";
import { canUseAvatar } from "../../accounts/public";
import { accounts, apps, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { VIDEO_FAILURES } from "@avatar-video/contract";
import type { JobError } from "./failures";
import { db } from "./store";

const failure = (code: "app_access_revoked" | "avatar_forbidden"): JobError => ({ code, ...VIDEO_FAILURES[code] });

/**
 * Access re-check before a video renders (at dispatch and when the renderer reaches "rendering"):
 * the creating App must still be live with video access on its active account, and the account must
 * still be allowed to use the Avatar. Returns the failure to end the job with, or null.
 */
export async function videoAccessProblem(
  env: Env,
  job: Pick<VideoJob, "appId" | "accountId" | "avatarId">,
): Promise<JobError | null> {
  if (job.appId === null) {
    // Made by a person in the web console: no App to check, only the account's flags (the same the console
    // checked at creation).
    const account = await db(env).select().from(accounts).where(eq(accounts.id, job.accountId)).get();
    if (!account?.active || !account.openApiAccess || !account.videoAccess) return failure("app_access_revoked");
    return (await canUseAvatar(env.DB, job.accountId, job.avatarId)) === "ok" ? null : failure("avatar_forbidden");
  }
  const app = await db(env)
    .select({
      revokedAt: apps.revokedAt,
      accountId: apps.accountId,
      active: accounts.active,
      open: accounts.openApiAccess,
      video: accounts.videoAccess,
    })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(eq(apps.id, job.appId))
    .get();
  if (!app || app.revokedAt || app.accountId !== job.accountId || !app.active || !app.open || !app.video)
    return failure("app_access_revoked");
  if ((await canUseAvatar(env.DB, job.accountId, job.avatarId)) !== "ok") return failure("avatar_forbidden");
  return null;
}
