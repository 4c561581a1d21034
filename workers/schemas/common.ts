import { AVATAR_REASON_CODES, AVATAR_REASONS } from "@avatar-video/contract";
import { z } from "zod";
import { checkUrlSyntax, MAX_URL_LENGTH } from "@avatar-video/contract";

/**
 * Building blocks shared by the request and response schemas. Messages are rules only ("must be a
 * UUID"); the validator prefixes the field path ("avatarId must be a UUID").
 */

/** Any 8-4-4-4-12 hex UUID (console-created Avatars may carry any version), compared lower-cased. */
export const Uuid = z
  .guid()
  .overwrite((s) => s.toLowerCase())
  .meta({ description: "UUID", examples: ["3f0f3c1e-8a4b-4c55-9d6c-2f1a7e5b9c01"] });

export const NAME_MAX = 128;
const codePoints = (s: string) => [...s].length;

/** 1 to 128 characters (Unicode code points, as JSON Schema counts them). */
export const Name = z
  .string()
  .refine((s) => codePoints(s) >= 1 && codePoints(s) <= NAME_MAX, `must be 1 to ${NAME_MAX} characters`)
  .meta({ minLength: 1, maxLength: NAME_MAX });

/**
 * A media source URL: 1–4096 characters, http(s), a host, no credentials, and no literal non-public IP.
 * The literal-IP rule needs the deployment's SOURCE_ALLOWLIST, so the schema checks syntax only and the
 * route applies `checkSourceAddress` (same rule table, same wording) right after validation.
 */
export const SourceUrl = z
  .string()
  .superRefine((s, ctx) => {
    const r = checkUrlSyntax(s);
    if (!r.ok && r.kind === "syntax") ctx.addIssue({ code: "custom", message: r.rule });
  })
  .meta({
    format: "uri",
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    description:
      "Public http(s) URL, 1 to 4096 characters, without username or password; literal private, loopback, link-local or otherwise non-public IP hosts are rejected. Signed query parameters are allowed.",
  });

export const Timestamp = z.iso.datetime().meta({ description: "ISO 8601 date-time in UTC" });

/** The stable reasons of @avatar-video/contract, each with the failure code it belongs to. */
export const AvatarReasonCode = z.enum(AVATAR_REASON_CODES).meta({
  id: "AvatarReason",
  description: Object.entries(AVATAR_REASONS)
    .map(([reason, r]) => `\`${reason}\` (${r.code}): ${r.summary}`)
    .join("\n"),
});

export const JobError = z
  .object({
    code: z.string().meta({ description: "Stable failure code (see the spec's failure code tables)" }),
    message: z.string().meta({ description: "Human-readable detail" }),
    retryable: z.boolean().meta({ description: "Whether a new request may succeed once the cause is fixed" }),
    reason: AvatarReasonCode.optional().meta({
      description: "Avatar jobs: why the job failed or the image was refused (stable; see the AvatarReason schema). Absent on video jobs.",
    }),
    detail: z.string().optional().meta({
      description:
        "One sentence for people: what was measured and the rule it broke, e.g. \"The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo.\" Do not parse it; program against code and reason.",
      examples: ["The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo."],
    }),
  })
  .meta({ id: "JobError", description: "Failure detail; present only on failed jobs." });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum([
        "invalid_request",
        "unauthorized",
        "insufficient_avatar_units",
        "forbidden",
        "not_found",
        "method_not_allowed",
        "conflict",
        "rate_limit_exceeded",
        "concurrency_limit_exceeded",
        "internal_error",
        "unsupported_input",
        "service_unavailable",
      ]),
      message: z.string(),
      requestId: z.string().meta({ description: "Equals the X-Request-ID response header" }),
    }),
  })
  .meta({ id: "Error", description: "Every error response uses this envelope." });
