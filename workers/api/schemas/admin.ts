/** Request fields shared by the admin routes (workers/api/admin/): account fields, limits patches, ID params. */
import { z } from "zod";
import { AvatarLimitsSchema, VideoLimitsSchema } from "../../accounts/public";
import { UUID_PATTERN } from "../../platform/http/uuid";

/** Type errors name the field; an absent required field says "is required". */
export const typeError = (field: string, rule: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? `${field} is required` : `${field} ${rule}`),
});
const uuid = (field: string) =>
  z.string(typeError(field, "must be a UUID")).regex(UUID_PATTERN, `${field} must be a UUID`);
export const bool = (field: string) => z.boolean(typeError(field, "must be a boolean"));

/** Upper bound for an account's Avatar Creation balance (keeps the arithmetic far from float precision). */
export const MAX_AVATAR_UNITS = 1_000_000_000;
const units = (field: string) =>
  z
    .number(typeError(field, "must be an integer"))
    .int(`${field} must be an integer`)
    .min(0, `${field} must be at least 0`)
    .max(MAX_AVATAR_UNITS, `${field} must be at most ${MAX_AVATAR_UNITS}`);

/**
 * `limits` in a create/patch body: each field optional. Omitted avatar fields keep their current value (the
 * ceiling on a new account); `video: null` removes explicit video limits; a video object on an account without
 * video limits must be complete (explicit limits are the point of the rule).
 */
export const LimitsPatchSchema = z.strictObject(
  {
    avatar: AvatarLimitsSchema.partial().strict().optional(),
    video: VideoLimitsSchema.partial().strict().nullable().optional(),
  },
  { error: "limits must be an object with optional fields avatar and video" },
);
export type LimitsPatch = z.infer<typeof LimitsPatchSchema>;

const accountFields = {
  active: bool("active").optional(),
  openApiAccess: bool("openApiAccess").optional(),
  avatarCreationEnabled: bool("avatarCreationEnabled").optional(),
  videoAccess: bool("videoAccess").optional(),
  videoCreationEnabled: bool("videoCreationEnabled").optional(),
  /** Absolute balance of Avatar Creations (free + reserved). */
  avatarUnits: units("avatarUnits").optional(),
  limits: LimitsPatchSchema.optional(),
};

export const adminName = z
  .string(typeError("name", "must be a string"))
  .trim()
  .min(1, "name must be 1 to 128 characters")
  .max(128, "name must be 1 to 128 characters");

export const CreateAccountSchema = z.strictObject({ name: adminName, ...accountFields });
export const PatchAccountSchema = z.strictObject({ name: adminName.optional(), ...accountFields });
export type CreateAccountBody = z.infer<typeof CreateAccountSchema>;
export type PatchAccountBody = z.infer<typeof PatchAccountSchema>;

export const accountIdParam = z.object({ accountId: uuid("accountId") });
export const appIdParam = z.object({ appId: uuid("appId") });
export const avatarIdParam = z.object({ avatarId: uuid("avatarId") });
