import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { workerConfig } from "../platform/config";
import { avatars } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { issueSessionToken } from "../platform/session-token/issue";
import { avatarCoverUrl } from "../platform/storage/links";

/** Tokens minted for the live page live one minute: enough to open the one connection they are for. */
export const LIVE_TOKEN_SECONDS = 60;

/**
 * What the live page loads (POST /console/live/session with an App key, POST /console/live/token with a console
 * session): a one-connection session token for `subject` (an App ID, or `person:<userId>`) and the account's
 * Avatars, newest first, at most 50, with preview cover links.
 */
export async function liveSession(env: Env, baseUrl: string, subject: string, accountId: string) {
  const now = Date.now();
  const expireAt = Math.floor(now / 1000) + LIVE_TOKEN_SECONDS;
  const sessionToken = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, {
    appId: subject,
    accountId,
    region: workerConfig(env).REGION,
    expireAt,
    now,
  });
  const rows = await drizzle(env.DB)
    .select()
    .from(avatars)
    .where(eq(avatars.accountId, accountId))
    .orderBy(desc(avatars.createdAt))
    .limit(50)
    .all();
  const preview = { accountId, use: "preview" } as const;
  return {
    sessionToken,
    expireAt,
    avatars: rows.map((a) => ({ id: a.id, name: a.name, coverUrl: avatarCoverUrl(env, baseUrl, a, preview) })),
  };
}
