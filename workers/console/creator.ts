import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, type VideoJob } from "../platform/db/schema";
import type { Env } from "../platform/env";

/**
 * Jobs record their creator in `appId`: an App id for Open API jobs, `console:{userId}` for jobs made in
 * the console (a person, not an App). Nothing returns appId to clients.
 */
const PREFIX = "console:";
export const consoleCreator = (userId: string) => `${PREFIX}${userId}`;
export const isConsoleCreator = (appId: string) => appId.startsWith(PREFIX);

/**
 * The console's half of the re-check before a video renders: with no App to revoke, the creator's
 * account must still be active with Open API and video access (the same flags the console checked at creation).
 */
export async function consoleCreatorMayRender(env: Env, job: Pick<VideoJob, "accountId">): Promise<boolean> {
  const account = await drizzle(env.DB).select().from(accounts).where(eq(accounts.id, job.accountId)).get();
  return !!account && account.active && account.openApiAccess && account.videoAccess;
}
