import { z } from "zod";

/** Response shapes of the admin API (docs/admin-api.md), documented in GET /v1/admin/openapi.json. */

const limitsShape = z.record(z.string(), z.number().int());

export const AccountView = z
  .object({
    id: z.string(),
    name: z.string(),
    active: z.boolean(),
    openApiAccess: z.boolean(),
    avatarCreationEnabled: z.boolean(),
    videoAccess: z.boolean(),
    videoCreationEnabled: z.boolean(),
    limits: z.object({ avatar: limitsShape, video: limitsShape.nullable() }),
    avatarUnits: z.number().int().meta({ description: "Balance of Avatar Creations, reserved ones included" }),
    reservedAvatarUnits: z.number().int(),
    availableAvatarUnits: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "AdminAccount" });

export const AccountResponse = z.object({ account: AccountView });

export const AppView = z
  .object({
    id: z.string(),
    accountId: z.string(),
    name: z.string(),
    createdAt: z.string(),
    revokedAt: z.string().optional(),
  })
  .meta({ id: "AdminApp" });
