import { checkUrlSyntax, MAX_URL_LENGTH } from "@avatar-video/contract";
import { z } from "zod";

/**
 * Field schemas shared by the request and response schemas of the Open API. Messages are rules only
 * ("must be a UUID"); the validator prefixes the field path ("avatarId must be a UUID").
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

export const iso = (d: Date) => d.toISOString();
