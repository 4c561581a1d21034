import { z } from "zod";
import type { AvatarJob as AvatarJobRow } from "../../platform/db/schema";
import { Pagination } from "../pagination/page-params";
import { iso, Timestamp, Uuid } from "./fields";
import { JobError, jobError } from "./job-error";

/** Status values of an Avatar creation job (spec: States and transitions). */
export const AVATAR_JOB_STATUSES = ["queued", "processing", "succeeded", "failed"] as const;
export type AvatarJobStatus = (typeof AVATAR_JOB_STATUSES)[number];

export const AvatarJob = z
  .object({
    id: Uuid,
    status: z.enum(AVATAR_JOB_STATUSES),
    name: z.string(),
    avatarId: Uuid.optional().meta({ description: "Present once status is succeeded" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: Timestamp.optional().meta({ description: "Present once the job succeeded or failed" }),
    error: JobError.optional(),
  })
  .meta({ id: "AvatarJob" });

export const AvatarJobDetail = z.object({ job: AvatarJob }).meta({ id: "AvatarJobDetail" });
export const AvatarJobList = z
  .object({ jobs: z.array(AvatarJob), pagination: Pagination })
  .meta({ id: "AvatarJobList" });

/**
 * Public view of an Avatar creation job. Fields that do not apply are omitted, not null: avatarId
 * until succeeded, completedAt until terminal, error unless failed. The source URL, unit bookkeeping
 * and dispatch state are never shown.
 */
export function serializeAvatarJob(job: AvatarJobRow): z.infer<typeof AvatarJob> {
  // Avatar jobs never expire (the shared column type merely allows it).
  const status = job.status as AvatarJobStatus;
  const error = status === "failed" ? jobError("avatar", job) : undefined;
  return {
    id: job.id,
    status,
    name: job.name,
    ...(status === "succeeded" && job.avatarId ? { avatarId: job.avatarId } : {}),
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    ...((status === "succeeded" || status === "failed") && job.completedAt
      ? { completedAt: iso(job.completedAt) }
      : {}),
    ...(error ? { error } : {}),
  };
}
