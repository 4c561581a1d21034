/**
 * Creation windows (per minute, per hour, per rolling 24 hours) as sliding logs in the `creations` table:
 * exactly the admissions in (now − window, now] count. Families: `avatar`, `video`, and `avatar_check`
 * (image checks share the Avatar per-minute window, and only that one).
 */
import { count } from "../limiter-store";
import type { Admission } from "../admission";
import type { AvatarLimits, VideoLimits } from "../limits";
import { CREATION_WINDOWS, secondsUntil } from "./windows";

export type CreationFamily = "avatar" | "video" | "avatar_check";

const FAMILY_LABEL = { avatar: "Avatar creation", video: "Video creation" } as const;

/** First blocking window (the one freeing last when several block), or null when all admit. */
export function checkWindows(
  sql: SqlStorage,
  family: "avatar" | "video",
  limits: AvatarLimits | VideoLimits,
  now: number,
): Admission | null {
  let worst: { retry: number; label: string; limit: number } | null = null;
  for (const w of CREATION_WINDOWS) {
    const limit = limits[w.key];
    const also = family === "avatar" && w.key === "perMinute" ? "avatar_check" : family;
    const inWindow = count(
      sql,
      "SELECT COUNT(*) AS n FROM creations WHERE family IN (?, ?) AND at > ?",
      family,
      also,
      now - w.ms,
    );
    if (inWindow < limit) continue;
    let retry: number;
    if (limit <= 0) retry = Math.ceil(w.ms / 1000);
    else {
      // The window admits again once the (inWindow − limit + 1) oldest entries have left it.
      const at = sql
        .exec<{ at: number }>(
          "SELECT at FROM creations WHERE family IN (?, ?) AND at > ? ORDER BY at ASC LIMIT 1 OFFSET ?",
          family,
          also,
          now - w.ms,
          inWindow - limit,
        )
        .one().at;
      retry = secondsUntil(at + w.ms, now);
    }
    if (!worst || retry > worst.retry) worst = { retry, label: w.label, limit };
  }
  if (!worst) return null;
  return {
    ok: false,
    code: "rate_limit_exceeded",
    message: `${FAMILY_LABEL[family]} limit exceeded: ${worst.limit} ${worst.label}. Retry after ${worst.retry} seconds.`,
    retryAfterSeconds: worst.retry,
  };
}

export function recordCreation(sql: SqlStorage, family: CreationFamily, id: string, now: number): void {
  sql.exec("INSERT INTO creations (family, job_id, at) VALUES (?, ?, ?)", family, id, now);
}

export function isRecorded(sql: SqlStorage, family: CreationFamily, id: string): boolean {
  return count(sql, "SELECT COUNT(*) AS n FROM creations WHERE family = ? AND job_id = ?", family, id) > 0;
}
