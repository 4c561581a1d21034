import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarGrants, avatars } from "../platform/db/schema";

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
