/**
 * The Avatar pre-flight check as a function: would this image URL become an Avatar? Runs on the renderer
 * (the face models live there) exactly what an Avatar job runs before creating anything — the SSRF-safe
 * download, the file rules and the face rules — and answers at once. No job, no unit, no Avatar, no
 * limit: callers apply their own admission (POST /v1/open/avatar-checks counts it in the Avatar
 * per-minute window; see workers/api/open/avatar-checks.ts). Usable by any surface (API, console).
 */
import { AVATAR_REASONS, isAvatarReason } from "@avatar-video/contract";
import { z } from "zod";
import type { Env } from "../../platform/env";
import { apiError } from "../../platform/http/errors";
import { logEvent } from "../../platform/logging/log-event";
import { AvatarReasonCode } from "../resources/job-error";
import { RendererUnavailable, checkOnRenderer } from "../../pipeline/public";

export const AvatarCheckFace = z
  .object({
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).meta({
      description: "Tight box around the face's 478 landmarks, in source image pixels (may reach outside the image)",
    }),
    widthPx: z.number().int().meta({ description: "Face width ear to ear in source pixels (at least 64 is needed)" }),
    sharpness: z
      .number()
      .meta({ description: "Normalised Laplacian variance of the inner face at 96 px (at least 0.016 is needed)" }),
    yawDeg: z
      .number()
      .meta({ description: "Head turn, degrees; positive = toward the image's right (|yaw| ≤ 30 accepted)" }),
    pitchDeg: z.number().meta({ description: "Head tilt up (+) or down (−), degrees (|pitch| ≤ 30 accepted)" }),
    rollDeg: z
      .number()
      .meta({ description: "Sideways tilt, degrees; positive = clockwise on screen (|roll| ≤ 35 accepted)" }),
  })
  .meta({
    id: "AvatarCheckFace",
    description: "What was measured on the one face found (null when there was not exactly one).",
  });

const FAILURE_CODES = [
  "source_download_failed",
  "invalid_image",
  "image_quality_rejected",
  "preprocess_failed",
  "avatar_generation_failed",
] as const;

export const AvatarCheck = z
  .object({
    acceptable: z.boolean().meta({
      description: "true: POST /avatars with this imageUrl passes every image rule (if the image does not change)",
    }),
    code: z
      .enum(FAILURE_CODES)
      .nullable()
      .meta({ description: "The Avatar job failure code this image would end with; null when acceptable" }),
    reason: AvatarReasonCode.nullable().meta({
      description: "Why it is not acceptable (same list as job.error.reason); null when acceptable",
    }),
    detail: z.string().meta({
      description:
        'One sentence with the measured value and the rule, e.g. "The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo."',
    }),
    face: AvatarCheckFace.nullable(),
  })
  .meta({ id: "AvatarCheck", description: "The verdict of the pre-flight check" });

export type AvatarCheckResult = z.infer<typeof AvatarCheck>;

const UNAVAILABLE = "The image could not be checked right now; retry in a few seconds.";

/**
 * Checks `imageUrl` (a URL already valid by the SourceUrl schema; a caller-given URL has also passed
 * `checkSourceAddress`, as in the route — the console passes its own signed upload URL). 503
 * service_unavailable when the renderer cannot answer now. Addresses are enforced again where the download
 * happens: the renderer's fetcher refuses non-public ones (reason source_refused), as for jobs.
 */
export async function checkAvatarImage(env: Env, imageUrl: string): Promise<AvatarCheckResult> {
  let raw: unknown;
  try {
    raw = await checkOnRenderer(env, imageUrl);
  } catch (err) {
    if (!(err instanceof RendererUnavailable)) throw err;
    logEvent("avatar_check_unavailable", { error: err }, "warn");
    throw apiError("service_unavailable", UNAVAILABLE, { headers: { "Retry-After": "5" } });
  }
  const parsed = AvatarCheck.safeParse(raw);
  // A verdict must be consistent: a refusal names a reason of its own code.
  if (
    !parsed.success ||
    (!parsed.data.acceptable &&
      !(isAvatarReason(parsed.data.reason) && AVATAR_REASONS[parsed.data.reason].code === parsed.data.code))
  ) {
    logEvent("avatar_check_bad_answer", { answer: JSON.stringify(raw).slice(0, 300) }, "error");
    throw apiError("service_unavailable", UNAVAILABLE, { headers: { "Retry-After": "5" } });
  }
  return parsed.data;
}
