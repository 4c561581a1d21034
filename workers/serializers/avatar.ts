import type { Avatar } from "../db/schema";
import type { Env } from "../env";
import type { AvatarOut } from "../schemas/avatars";
import { avatarBackgroundUrl, avatarCoverUrl } from "../storage/links";
import { iso } from "./common";

/** Public view of an Avatar: absolute links only, never storage keys; no background → field omitted. */
export function serializeAvatar(env: Pick<Env, "SIGNING_SECRET">, baseUrl: string, avatar: Avatar): AvatarOut {
  const backgroundImageUrl = avatarBackgroundUrl(env, baseUrl, avatar);
  return {
    id: avatar.id,
    name: avatar.name,
    coverUrl: avatarCoverUrl(env, baseUrl, avatar),
    ...(backgroundImageUrl ? { backgroundImageUrl } : {}),
    createdAt: iso(avatar.createdAt),
    updatedAt: iso(avatar.updatedAt),
  };
}
