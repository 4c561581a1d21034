import { z } from "zod";
import { AVATAR_JOB_STATUSES } from "./jobs";
import { JobError, Name, SourceUrl, Timestamp, Uuid } from "./common";
import { Pagination, PaginationQuery, statusesParam } from "./pagination";

// ---- requests ----------------------------------------------------------------------------------

export const CreateAvatarRequest = z
  .strictObject({
    imageUrl: SourceUrl.meta({ description: "Public http(s) URL of a JPEG or PNG portrait (validated asynchronously)" }),
    name: Name.optional().meta({ description: "Job and Avatar name, 1 to 128 characters; default derived from the job ID" }),
  })
  .meta({ id: "CreateAvatarRequest" });

/** Top-level fields of features this version lacks (501 unsupported_input instead of 400). */
export const AVATAR_UNSUPPORTED_FIELDS = {
  callbackUrl: "Avatar creation sends no callbacks; poll GET /avatar-jobs/{jobId}",
  webhookUrl: "Avatar creation sends no callbacks; poll GET /avatar-jobs/{jobId}",
  image: "uploads are unavailable; send a public imageUrl",
  imageBase64: "uploads are unavailable; send a public imageUrl",
  file: "uploads are unavailable; send a public imageUrl",
};

export const AvatarJobPath = z.strictObject({ jobId: Uuid });
export const AvatarPath = z.strictObject({ avatarId: Uuid });

export const ListAvatarJobsQuery = z.strictObject({
  statuses: statusesParam(AVATAR_JOB_STATUSES).optional(),
  ...PaginationQuery,
});
export const ListAvatarsQuery = z.strictObject({ ...PaginationQuery });

// ---- responses ---------------------------------------------------------------------------------

export const CreateAvatarResponse = z
  .object({ jobId: Uuid, status: z.literal("queued") })
  .meta({ id: "CreateAvatarResponse" });

export const Avatar = z
  .object({
    id: Uuid,
    name: z.string(),
    coverUrl: z.url().meta({ description: "Absolute cover image address, usable without authentication headers" }),
    backgroundImageUrl: z.url().optional().meta({ description: "16:9 background image address; omitted when the Avatar has none" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Avatar" });

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
export const AvatarDetail = z.object({ avatar: Avatar }).meta({ id: "AvatarDetail" });
export const AvatarJobList = z.object({ jobs: z.array(AvatarJob), pagination: Pagination }).meta({ id: "AvatarJobList" });
export const AvatarList = z.object({ avatars: z.array(Avatar), pagination: Pagination }).meta({ id: "AvatarList" });

export type AvatarOut = z.infer<typeof Avatar>;
export type AvatarJobOut = z.infer<typeof AvatarJob>;
