import { isMotionModelVersion, MOTION_MODEL_VERSIONS } from "@avatar-video/motion-model";
import { z } from "zod";

/** Longest session token lifetime (spec: expireAt earlier than now + 24 h). */
export const SESSION_TOKEN_MAX_SECONDS = 24 * 60 * 60;

export const SessionTokenRequest = z
  .strictObject({
    expireAt: z
      .number()
      .int("must be an integer number of seconds since the Unix epoch")
      .meta({ description: "Expiry as Unix time in seconds: later than now and earlier than now + 24 hours" }),
    modelVersion: z
      .string()
      .min(1, "must be 1 to 128 characters")
      .max(128, "must be 1 to 128 characters")
      .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
      .refine(isMotionModelVersion, `must be a known model version: ${MOTION_MODEL_VERSIONS.join(", ")}`)
      .optional()
      .meta({
        description: `Optional model version override, stamped into the token. Known versions: ${MOTION_MODEL_VERSIONS.join(", ")}; omitted → the current version`,
      }),
  })
  .meta({ id: "SessionTokenRequest" });

export const SessionTokenResponse = z
  .object({
    sessionToken: z.string().meta({ description: "Compact JWS (JWT) signed with Ed25519; see docs/session-tokens.md" }),
  })
  .meta({ id: "SessionTokenResponse" });
