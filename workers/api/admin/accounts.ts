import type { Account } from "../../platform/db/schema";
import { invalid } from "../../platform/http/errors";
import { defaultAccountLimits, type AccountLimits, type VideoLimits, type Balance } from "../../accounts/public";
import type { LimitsPatch } from "../schemas/admin";

export const VIDEO_LIMITS_REQUIRED = "Video access requires explicit account limits";

const VIDEO_KEYS = ["perMinute", "perHour", "perDay", "readsPerSecond", "readBurst", "readsPerMinute"] as const;

/**
 * Applies a `limits` patch to the current limits (defaults for a new account). Avatar fields merge one by
 * one; `video: null` removes the explicit video limits; a video object merges over the current video limits,
 * and must be complete when there are none yet (explicit means every value chosen by the operator).
 */
export function mergeLimits(current: AccountLimits | undefined, patch: LimitsPatch | undefined): AccountLimits {
  const base = current ?? defaultAccountLimits();
  const avatar = { ...base.avatar, ...(patch?.avatar ?? {}) };
  let video: VideoLimits | null = base.video;
  if (patch?.video === null) video = null;
  else if (patch?.video) {
    const merged = { ...(base.video ?? {}), ...patch.video };
    const missing = VIDEO_KEYS.find((k) => merged[k] === undefined);
    if (missing)
      throw invalid(
        `limits.video.${missing} is required: explicit video limits must set every field (${VIDEO_KEYS.join(", ")})`,
      );
    video = merged as VideoLimits;
  }
  return { avatar, video };
}

/** The resulting account may not have video access without explicit video limits. */
export function assertVideoRule(videoAccess: boolean, limits: AccountLimits) {
  if (videoAccess && !limits.video)
    throw invalid(`${VIDEO_LIMITS_REQUIRED}: set limits.video (in the same request or before) to enable videoAccess`);
}

export function serializeAccount(account: Account, balance: Balance) {
  return {
    id: account.id,
    name: account.name,
    active: account.active,
    openApiAccess: account.openApiAccess,
    avatarCreationEnabled: account.avatarCreationEnabled,
    videoAccess: account.videoAccess,
    videoCreationEnabled: account.videoCreationEnabled,
    limits: account.limits,
    avatarUnits: balance.avatarUnits,
    reservedAvatarUnits: balance.reservedAvatarUnits,
    availableAvatarUnits: balance.avatarUnits - balance.reservedAvatarUnits,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}
