import type { AvatarJob } from "../db/schema";
import type { AvatarJobOut } from "../schemas/avatars";
import type { AvatarJobStatus } from "../schemas/jobs";
import { iso, jobError } from "./common";

/**
 * Public view of an Avatar creation job. Fields that do not apply are omitted, not null: avatarId
 * until succeeded, completedAt until terminal, error unless failed. The source URL, unit bookkeeping
 * and dispatch state are never shown.
 */
export function serializeAvatarJob(job: AvatarJob): AvatarJobOut {
  // Avatar jobs never expire (the shared column type merely allows it).
  const status = job.status as AvatarJobStatus;
  const error = status === "failed" ? jobError(job) : undefined;
  return {
    id: job.id,
    status,
    name: job.name,
    ...(status === "succeeded" && job.avatarId ? { avatarId: job.avatarId } : {}),
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    ...((status === "succeeded" || status === "failed") && job.completedAt ? { completedAt: iso(job.completedAt) } : {}),
    ...(error ? { error } : {}),
  };
}
