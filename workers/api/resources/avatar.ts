import { z } from "zod";
import type { Avatar as AvatarRow } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { Pagination } from "../pagination/page-params";
import { avatarBackgroundUrl, avatarCoverUrl } from "../../platform/storage/links";
import { iso, Timestamp, Uuid } from "./fields";

/** An Avatar as the Open API shows it (GET /avatars, GET /avatars/{avatarId}). */
export const Avatar = z
  .object({
    id: Uuid,
    name: z.string(),
    coverUrl: z.url().meta({ description: "Absolute cover image address, usable without authentication headers" }),
    backgroundImageUrl: z
      .url()
      .optional()
      .meta({ description: "16:9 background image address; omitted when the Avatar has none" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Avatar" });

export const AvatarDetail = z.object({ avatar: Avatar }).meta({ id: "AvatarDetail" });
export const AvatarList = z.object({ avatars: z.array(Avatar), pagination: Pagination }).meta({ id: "AvatarList" });

/**
 * Public view of an Avatar: absolute links only, never storage keys; no background → field omitted. The links
 * are signed afresh on every read for the reading account (`readerAccountId`), valid at least 24 h.
 */
export function serializeAvatar(
  env: Pick<Env, "SIGNING_SECRET" | "LINK_SIGNING_KEYS">,
  baseUrl: string,
  avatar: AvatarRow,
  readerAccountId: string,
): z.infer<typeof Avatar> {
  const to = { accountId: readerAccountId, use: "api" } as const;
  const backgroundImageUrl = avatarBackgroundUrl(env, baseUrl, avatar, to);
  return {
    id: avatar.id,
    name: avatar.name,
    coverUrl: avatarCoverUrl(env, baseUrl, avatar, to),
    ...(backgroundImageUrl ? { backgroundImageUrl } : {}),
    createdAt: iso(avatar.createdAt),
    updatedAt: iso(avatar.updatedAt),
  };
}
