import type { AvatarLimits, VideoLimits } from "./limits";

export type { AvatarLimits, VideoLimits };

/** Outcome of a creation admission. A refusal carries the envelope fields to answer with (the status is the code's). */
export type Admission =
  | { ok: true }
  | {
      ok: false;
      code: "insufficient_avatar_units" | "rate_limit_exceeded" | "concurrency_limit_exceeded";
      message: string;
      /** Whole seconds (≥ 1) until the blocking limit frees a slot; absent for 402. */
      retryAfterSeconds?: number;
    };

/** A video creation's retry-key claim, recorded atomically with its admission. */
export interface VideoClaim {
  jobId: string;
  /** The caller's retry key (body `requestId`); null when the request has none. */
  requestId: string | null;
  /** SHA-256 of the normalized input. */
  fingerprint: string;
  /** Acceptance time (epoch ms) the job will carry. */
  createdAt: number;
}

export interface ExistingClaim {
  jobId: string;
  fingerprint: string;
  createdAt: number;
}

export type VideoAdmission = Admission & { existing?: ExistingClaim };

/** `avatarUnits`: balance of Avatar Creations, reserved ones included; free = avatarUnits − reservedAvatarUnits. */
export interface Balance {
  avatarUnits: number;
  reservedAvatarUnits: number;
}

export type UnitsUpdate = { ok: true; balance: Balance } | { ok: false; message: string; balance: Balance };

export type UnitState = "reserved" | "captured" | "released";

export type ReadFamily = "avatar" | "video";
export type ReadLimits = Pick<AvatarLimits, "readsPerSecond" | "readBurst" | "readsPerMinute">;

/** State of one read policy after a decision, for the RateLimit header. */
export interface ReadPolicyState {
  /** Units left right now (after counting this read when it was admitted). */
  remaining: number;
  /** Whole seconds until the policy is back at its full quota. */
  resetSeconds: number;
}

export interface ReadDecision {
  ok: boolean;
  burst: ReadPolicyState;
  minute: ReadPolicyState;
  /** Refused reads: whole seconds (≥ 1) until a read would be admitted. */
  retryAfterSeconds?: number;
}

export interface ReconcileInput {
  /** Avatar jobs of the account that D1 shows queued or processing. */
  activeAvatarJobs: string[];
  /** Jobs whose unit D1 records as captured (or that succeeded). */
  capturedJobs: string[];
  /** Jobs whose unit D1 records as released (or that failed while still reserved). */
  releasedJobs: string[];
}

export interface ReconcileResult {
  /** Concurrency entries dropped (job no longer active in D1) and added (active in D1, unknown here). */
  deactivated: string[];
  activated: string[];
  captured: string[];
  released: string[];
  balance: Balance;
}
