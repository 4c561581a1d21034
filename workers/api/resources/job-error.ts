import {
  AVATAR_REASON_CODES,
  AVATAR_REASONS,
  failureEntry,
  isAvatarReason,
  JOB_FAILURES,
  type JobKind,
} from "@avatar-video/contract";
import { z } from "zod";
import type { AvatarJob, VideoJob } from "../../platform/db/schema";

/** The stable reasons of @avatar-video/contract, each with the failure code it belongs to. */
export const AvatarReasonCode = z.enum(AVATAR_REASON_CODES).meta({
  id: "AvatarReason",
  description: Object.entries(AVATAR_REASONS)
    .map(([reason, r]) => `\`${reason}\` (${r.code}): ${r.summary}`)
    .join("\n"),
});

const codeList = (kind: JobKind) =>
  Object.entries(JOB_FAILURES[kind])
    .map(([code, f]) => `\`${code}\`${f.retryable ? " (retryable)" : ""}`)
    .join(", ");

export const JobError = z
  .object({
    code: z.string().meta({
      description: `Stable failure code. Avatar jobs: ${codeList("avatar")}. Video jobs: ${codeList("video")}.`,
    }),
    message: z.string().meta({ description: "Human-readable detail" }),
    retryable: z.boolean().meta({ description: "Whether a new request may succeed once the cause is fixed" }),
    reason: AvatarReasonCode.optional().meta({
      description:
        "Avatar jobs: why the job failed or the image was refused (stable; see the AvatarReason schema). Absent on video jobs.",
    }),
    detail: z
      .string()
      .optional()
      .meta({
        description:
          'One sentence for people: what was measured and the rule it broke, e.g. "The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo." Do not parse it; program against code and reason.',
        examples: ["The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo."],
      }),
  })
  .meta({ id: "JobError", description: "Failure detail; present only on failed jobs." });

type StoredFailure = Pick<
  AvatarJob | VideoJob,
  "errorCode" | "errorMessage" | "errorRetryable" | "errorReason" | "errorDetail"
>;

/**
 * `error` only on failed jobs, from the stored code/message/retryable and the client-facing reason and
 * detail (never internal detail). A missing stored message (failures stored before migration 0002) falls
 * back to the failure table's message for the code.
 */
export function jobError(kind: JobKind, job: StoredFailure): z.infer<typeof JobError> | undefined {
  if (!job.errorCode) return undefined;
  return {
    code: job.errorCode,
    message: job.errorMessage ?? failureEntry(kind, job.errorCode)?.message ?? "The job failed.",
    retryable: job.errorRetryable ?? false,
    ...(job.errorReason && isAvatarReason(job.errorReason) ? { reason: job.errorReason } : {}),
    ...(job.errorDetail ? { detail: job.errorDetail } : {}),
  };
}
