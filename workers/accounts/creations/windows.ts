import type { AvatarLimits, VideoLimits } from "../limits";

/** Creation windows, longest last. Sliding logs: exactly the admissions in (now − ms, now] count. */
export const CREATION_WINDOWS = [
  { key: "perMinute", ms: 60_000, label: "per minute" },
  { key: "perHour", ms: 3_600_000, label: "per hour" },
  { key: "perDay", ms: 86_400_000, label: "per rolling 24 hours" },
] as const satisfies readonly { key: keyof AvatarLimits & keyof VideoLimits; ms: number; label: string }[];

export const DAY_MS = 86_400_000;

/** Whole seconds until `untilMs`, at least 1 (a Retry-After of 0 invites a hot loop). */
export const secondsUntil = (untilMs: number, now: number) => Math.max(1, Math.ceil((untilMs - now) / 1000));
