import {
  AVATAR_CREATION_DISABLED_MESSAGE,
  OPEN_API_ACCESS_MESSAGE,
  VIDEO_ACCESS_MESSAGE,
  VIDEO_CREATION_DISABLED_MESSAGE,
} from "../platform/auth/access";
import type { Account } from "../platform/db/schema";
import { forbidden } from "../platform/http/errors";

/**
 * The account's access flags apply to the console exactly as to the Open API (same messages): a paused
 * family shows its create button disabled with this reason, and a forged request is refused with it.
 */
export function avatarCreationBlock(account: Account): string | null {
  if (!account.openApiAccess) return OPEN_API_ACCESS_MESSAGE;
  if (!account.avatarCreationEnabled) return AVATAR_CREATION_DISABLED_MESSAGE;
  return null;
}

/** Video pages need video access (reads included: removing video access also revokes video reads). */
export function videoReadBlock(account: Account): string | null {
  if (!account.openApiAccess) return OPEN_API_ACCESS_MESSAGE;
  if (!account.videoAccess || !account.limits.video) return VIDEO_ACCESS_MESSAGE;
  return null;
}

export function videoCreationBlock(account: Account): string | null {
  return videoReadBlock(account) ?? (account.videoCreationEnabled ? null : VIDEO_CREATION_DISABLED_MESSAGE);
}

export function assertAllowed(block: string | null): void {
  if (block) throw forbidden(block);
}
