/**
 * Admission of creations, each all-or-nothing inside one synchronous call: Avatar jobs (windows, concurrency,
 * one free unit), video jobs (retry-key claim, windows) and Avatar image checks (the per-minute window only).
 */
import { concurrencyRefusal, markActive } from "./avatar-concurrency";
import { reservationState, reserve, unitRefusal } from "../avatar-units";
import { checkSlotRefusal, takeCheckSlot } from "./check-slots";
import { checkWindows, isRecorded, recordCreation } from "./creation-windows";
import { prune } from "../limiter-store";
import type { Admission } from "../admission";
import type { AvatarLimits, VideoLimits } from "../limits";
import { findClaim, recordClaim, type VideoAdmission, type VideoClaim } from "./video-claims";

/** Windows, then concurrency, then one free unit. Idempotent by jobId. */
export function admitAvatarCreation(sql: SqlStorage, jobId: string, limits: AvatarLimits, now: number): Admission {
  if (reservationState(sql, jobId)) return { ok: true };
  prune(sql, now);
  const refusal =
    checkWindows(sql, "avatar", limits, now) ?? concurrencyRefusal(sql, limits.concurrent) ?? unitRefusal(sql);
  if (refusal) return refusal;
  recordCreation(sql, "avatar", jobId, now);
  markActive(sql, jobId, now);
  reserve(sql, jobId, now);
  return { ok: true };
}

/**
 * A claimed requestId returns the existing claim without counting anything (the caller compares
 * fingerprints: same → the existing job, different → 409). Otherwise the windows decide and, when admitted,
 * the creation is counted and the claim recorded in the same step. Idempotent by jobId.
 */
export function admitVideoCreation(
  sql: SqlStorage,
  claim: VideoClaim,
  limits: VideoLimits,
  now: number,
): VideoAdmission {
  const existing = claim.requestId === null ? undefined : findClaim(sql, claim.requestId);
  if (existing) return { ok: true, existing };
  if (isRecorded(sql, "video", claim.jobId)) return { ok: true };
  prune(sql, now);
  const refusal = checkWindows(sql, "video", limits, now);
  if (refusal) return refusal;
  recordCreation(sql, "video", claim.jobId, now);
  recordClaim(sql, claim);
  return { ok: true };
}

/**
 * POST /avatar-checks (and the console's portrait check) costs compute like a creation: it takes a slot of the
 * Avatar per-minute window (checks and creations share it) but counts toward neither the hourly nor the
 * 24-hour quota and reserves nothing. It also takes one of the account's check slots in flight (check-slots.ts;
 * freed by endCheckSlot when the check answers). `needsUnit` (the console, which makes a job right after): no
 * free Avatar Creation → 402 before any check. Idempotent by checkId.
 */
export function admitAvatarCheck(
  sql: SqlStorage,
  checkId: string,
  limits: AvatarLimits,
  now: number,
  needsUnit = false,
): Admission {
  if (isRecorded(sql, "avatar_check", checkId)) return { ok: true };
  prune(sql, now);
  const refusal = checkWindows(sql, "avatar", { ...limits, perHour: Infinity, perDay: Infinity }, now);
  if (refusal && !refusal.ok)
    return { ...refusal, message: `${refusal.message} Image checks count toward this limit.` };
  const other = checkSlotRefusal(sql, now) ?? (needsUnit ? unitRefusal(sql) : null);
  if (other) return other;
  recordCreation(sql, "avatar_check", checkId, now);
  takeCheckSlot(sql, checkId, now);
  return { ok: true };
}
