import { DurableObject } from "cloudflare:workers";
import type { Env } from "../platform/env";
import type { Admission } from "./admission";
import {
  addUnits,
  type Balance,
  balance,
  reservationState,
  setUnits,
  settle,
  type UnitState,
  type UnitsUpdate,
} from "./avatar-units";
import { admitUpload, checkUploadBytes, completeUploadBytes, endUpload } from "./console-uploads";
import { markEnded } from "./creations/avatar-concurrency";
import { endCheckSlot } from "./creations/check-slots";
import { admitAvatarCheck, admitAvatarCreation, admitVideoCreation } from "./creations/creation-admission";
import type { VideoAdmission, VideoClaim } from "./creations/video-claims";
import { createTables, readMeta, writeMeta } from "./limiter-store";
import type { AvatarLimits, VideoLimits } from "./limits";
import {
  admitMotionConnection,
  endMotionConnection,
  motionLimits,
  openMotionConnections,
  setMotionLimits,
  type MotionAdmission,
  type MotionLimits,
} from "./motion/motion-connections";
import {
  admitRead,
  loadReadState,
  peekRead,
  type ReadDecision,
  type ReadFamily,
  type ReadLimits,
  type ReadStates,
} from "./reads/read-bucket";
import { alignWithD1, listOpenJobs, type ReconcileInput, type ReconcileResult } from "./reconcile/align-with-d1";

const READ_PERSIST_EVERY_MS = 1_000;

/**
 * One per account (getByName(accountId)). Every admission decision of the account is made here, one at a
 * time: all methods are synchronous over the object's SQLite storage (no await between read and write),
 * so concurrent RPCs cannot interleave. This class only routes each RPC to the module of its limit kind:
 * creation-admission (windows, concurrency, units), avatar-units, align-with-d1, read-bucket (in memory,
 * snapshotted at most once a second) and motion-connections (see docs/limits.md).
 */
export class AccountLimiter extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private reads: ReadStates;
  private readsPersistedAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // Synchronous SQL in the constructor: no request is delivered before it returns.
    createTables(this.sql);
    this.reads = loadReadState(readMeta(this.sql, "reads"));
  }

  // ---- creations ------------------------------------------------------------------------------------------

  admitAvatarCreation(jobId: string, limits: AvatarLimits, now: number): Admission {
    return admitAvatarCreation(this.sql, jobId, limits, now);
  }

  admitVideoCreation(claim: VideoClaim, limits: VideoLimits, now: number): VideoAdmission {
    return admitVideoCreation(this.sql, claim, limits, now);
  }

  /** The same admission plus the video read figures (no read counted): POST /videos's RateLimit headers in one round trip. */
  admitVideoCreationWithReads(
    claim: VideoClaim,
    limits: VideoLimits,
    now: number,
  ): VideoAdmission & { reads: ReadDecision } {
    return { ...admitVideoCreation(this.sql, claim, limits, now), reads: peekRead(this.reads, "video", limits, now) };
  }

  admitAvatarCheck(checkId: string, limits: AvatarLimits, now: number, needsUnit = false): Admission {
    return admitAvatarCheck(this.sql, checkId, limits, now, needsUnit);
  }

  /** The check answered (or failed): its slot in flight is free again. */
  endAvatarCheck(checkId: string): void {
    endCheckSlot(this.sql, checkId);
  }

  // ---- Avatar jobs: concurrency and units ---------------------------------------------------------------

  /** Preprocessing completed: the reserved unit is spent. Exactly once; no-op unless still reserved. */
  captureAvatarUnit(jobId: string, now: number = Date.now()): { state: UnitState | null } {
    if (reservationState(this.sql, jobId) === "reserved") settle(this.sql, jobId, "captured", now);
    return { state: reservationState(this.sql, jobId) };
  }

  /** The job ended (any outcome): frees its concurrency slot and releases its unit if still reserved. */
  finishAvatarJob(jobId: string, now: number = Date.now()): { state: UnitState | null } {
    markEnded(this.sql, jobId);
    if (reservationState(this.sql, jobId) === "reserved") settle(this.sql, jobId, "released", now);
    return { state: reservationState(this.sql, jobId) };
  }

  getBalance(): Balance {
    return balance(this.sql);
  }

  setAvatarUnits(total: number): UnitsUpdate {
    return setUnits(this.sql, total);
  }

  addAvatarUnits(delta: number): UnitsUpdate {
    return addUnits(this.sql, delta);
  }

  listOpenJobs(): { active: string[]; reserved: string[] } {
    return listOpenJobs(this.sql);
  }

  reconcile(input: ReconcileInput, now: number = Date.now()): ReconcileResult {
    return alignWithD1(this.sql, input, now);
  }

  // ---- live motion ------------------------------------------------------------------------------------

  /** Spend a session token (single use by jti) and take a connection slot. */
  admitMotionConnection(
    input: { connectionId: string; jti: string; exp: number },
    now: number = Date.now(),
  ): MotionAdmission {
    return admitMotionConnection(this.sql, input, now);
  }

  endMotionConnection(connectionId: string, coolDownUntil?: number, now: number = Date.now()): number | undefined {
    return endMotionConnection(this.sql, connectionId, coolDownUntil, now);
  }

  motionStatus(): { limits: MotionLimits; open: number } {
    return { limits: motionLimits(this.sql), open: openMotionConnections(this.sql) };
  }

  setMotionLimits(limits: Partial<MotionLimits>): MotionLimits {
    return setMotionLimits(this.sql, limits);
  }

  // ---- console uploads --------------------------------------------------------------------------------

  /** Takes a slot for an unfinished (multipart) console upload; refused when the account holds `limit`. */
  admitUpload(uploadId: string, limit: number, now: number = Date.now()): Admission {
    return admitUpload(this.sql, uploadId, limit, now);
  }

  endUpload(uploadId: string): void {
    endUpload(this.sql, uploadId);
  }

  checkUploadBytes(bytes: number, limit: number, now: number = Date.now()): Admission {
    return checkUploadBytes(this.sql, bytes, limit, now);
  }

  completeUploadBytes(uploadId: string, bytes: number, limit: number, now: number = Date.now()): Admission {
    return completeUploadBytes(this.sql, uploadId, bytes, limit, now);
  }

  // ---- reads ------------------------------------------------------------------------------------------

  /** Token bucket (readsPerSecond, burst readBurst) plus a sliding per-minute cap; refused reads cost nothing. */
  admitRead(family: ReadFamily, limits: ReadLimits, now: number = Date.now()): ReadDecision {
    const decision = admitRead(this.reads, family, limits, now);
    if (Math.abs(now - this.readsPersistedAt) >= READ_PERSIST_EVERY_MS) {
      this.readsPersistedAt = now;
      writeMeta(this.sql, "reads", JSON.stringify(this.reads));
    }
    return decision;
  }

  /** The family's read figures without counting a read (RateLimit headers on creation routes). */
  readStatus(family: ReadFamily, limits: ReadLimits, now: number = Date.now()): ReadDecision {
    return peekRead(this.reads, family, limits, now);
  }
}
