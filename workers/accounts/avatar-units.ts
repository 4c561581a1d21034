/**
 * Avatar Creation units: the account's balance (`meta.avatar_units`) and one reservation per admitted Avatar
 * job, settled exactly once as captured (preprocessing completed: the unit is spent) or released.
 */
import { count, readMeta, writeMeta } from "./limiter-store";
import type { Admission } from "./admission";

/** `avatarUnits`: balance of Avatar Creations, reserved ones included; free = avatarUnits − reservedAvatarUnits. */
export interface Balance {
  avatarUnits: number;
  reservedAvatarUnits: number;
}

export type UnitsUpdate = { ok: true; balance: Balance } | { ok: false; message: string; balance: Balance };

export type UnitState = "reserved" | "captured" | "released";

/** Largest balance an operator can set (mirrors the admin schema). */
const MAX_UNITS = 1_000_000_000;

export function balance(sql: SqlStorage): Balance {
  return {
    avatarUnits: Number(readMeta(sql, "avatar_units") ?? 0),
    reservedAvatarUnits: count(sql, "SELECT COUNT(*) AS n FROM reservations WHERE state = 'reserved'"),
  };
}

export function unitRefusal(sql: SqlStorage): Admission | null {
  const { avatarUnits, reservedAvatarUnits } = balance(sql);
  if (avatarUnits - reservedAvatarUnits >= 1) return null;
  return {
    ok: false,
    code: "insufficient_avatar_units",
    message: `No Avatar Creations left: balance ${avatarUnits}, of which ${reservedAvatarUnits} reserved by jobs in progress.`,
  };
}

export function reserve(sql: SqlStorage, jobId: string, now: number): void {
  sql.exec("INSERT INTO reservations (job_id, state, reserved_at) VALUES (?, 'reserved', ?)", jobId, now);
}

export function reservationState(sql: SqlStorage, jobId: string): UnitState | null {
  return (
    sql.exec<{ state: UnitState }>("SELECT state FROM reservations WHERE job_id = ?", jobId).toArray()[0]?.state ?? null
  );
}

export function reservedJobs(sql: SqlStorage): { job_id: string; reserved_at: number }[] {
  return sql
    .exec<{ job_id: string; reserved_at: number }>(
      "SELECT job_id, reserved_at FROM reservations WHERE state = 'reserved'",
    )
    .toArray();
}

/** Captured spends the unit; released gives it back. No-op unless still reserved. */
export function settle(sql: SqlStorage, jobId: string, state: "captured" | "released", now: number): void {
  sql.exec(
    "UPDATE reservations SET state = ?, settled_at = ? WHERE job_id = ? AND state = 'reserved'",
    state,
    now,
    jobId,
  );
  if (state === "captured") writeMeta(sql, "avatar_units", String(Number(readMeta(sql, "avatar_units") ?? 0) - 1));
}

/** Operator: set the balance (reserved units included). It may not drop below the units reserved now. */
export function setUnits(sql: SqlStorage, total: number): UnitsUpdate {
  const current = balance(sql);
  if (!Number.isSafeInteger(total) || total < current.reservedAvatarUnits || total > MAX_UNITS) {
    return {
      ok: false,
      balance: current,
      message: `avatarUnits must be an integer from ${current.reservedAvatarUnits} (units reserved by jobs in progress) to ${MAX_UNITS}`,
    };
  }
  writeMeta(sql, "avatar_units", String(total));
  return { ok: true, balance: balance(sql) };
}

/** Operator: atomic grant (delta > 0) or withdrawal (delta < 0). */
export function addUnits(sql: SqlStorage, delta: number): UnitsUpdate {
  const current = balance(sql);
  const total = current.avatarUnits + delta;
  if (!Number.isSafeInteger(delta) || total < current.reservedAvatarUnits || total > MAX_UNITS) {
    return {
      ok: false,
      balance: current,
      message: `delta would make the balance ${total}; it must stay from ${current.reservedAvatarUnits} (units reserved by jobs in progress) to ${MAX_UNITS}`,
    };
  }
  writeMeta(sql, "avatar_units", String(total));
  return { ok: true, balance: balance(sql) };
}
