import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, avatarGrants, avatars } from "../platform/db/schema";

/**
 * May `accountId` render videos with `avatarId`? Yes when the account owns it, it is public, or an operator
 * granted it (avatar_grants). Unknown Avatar → "not_found"; someone else's private Avatar → "forbidden".
 */
export async function canUseAvatar(
  db: D1Database,
  accountId: string,
  avatarId: string,
): Promise<"ok" | "not_found" | "forbidden"> {
  const row = await drizzle(db)
    .select({ accountId: avatars.accountId, isPublic: avatars.isPublic, granted: avatarGrants.accountId })
    .from(avatars)
    .leftJoin(avatarGrants, and(eq(avatarGrants.avatarId, avatars.id), eq(avatarGrants.accountId, accountId)))
    .where(eq(avatars.id, avatarId.toLowerCase()))
    .get();
  if (!row) return "not_found";
  return row.accountId === accountId || row.isPublic || row.granted ? "ok" : "forbidden";
}

/**
 * May a media link issued to `accountId` still show `avatarId`'s images? Only while the account is active and
 * still may use the Avatar (a revoked grant or a deactivated account closes every link issued to it).
 */
export async function canSeeAvatarMedia(db: D1Database, accountId: string, avatarId: string): Promise<boolean> {
  const row = await drizzle(db)
    .select({
      active: accounts.active,
      owner: avatars.accountId,
      isPublic: avatars.isPublic,
      granted: avatarGrants.accountId,
    })
    .from(accounts)
    .innerJoin(avatars, eq(avatars.id, avatarId))
    .leftJoin(avatarGrants, and(eq(avatarGrants.avatarId, avatars.id), eq(avatarGrants.accountId, accountId)))
    .where(eq(accounts.id, accountId))
    .get();
  return !!row?.active && (row.owner === accountId || row.isPublic || !!row.granted);
}
