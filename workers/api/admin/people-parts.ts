import { z } from "zod";
import { PERSON_ROLES } from "../../platform/db/schema";

/** Shapes shared by the admin routes over console people and invites (docs/admin-api.md, "People"). */
export const userIdParam = z.object({
  userId: z
    .string({ error: "userId must be a UUID" })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "userId must be a UUID"),
});
export const RoleField = z.enum(PERSON_ROLES, { error: `role must be one of ${PERSON_ROLES.join(", ")}` });
export const PersonView = z
  .object({ id: z.string(), accountId: z.string(), email: z.string(), role: RoleField })
  .meta({ id: "AdminPerson" });
