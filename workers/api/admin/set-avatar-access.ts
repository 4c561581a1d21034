import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { setAvatarAccess } from "./avatar-access";
import { avatarIdParam, bool } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";
import { UUID_PATTERN } from "../../platform/http/uuid";

const AvatarAccess = z.strictObject({
  public: bool("public").optional(),
  allowAccountIds: z
    .array(z.string({ error: "must be a UUID" }).regex(UUID_PATTERN, "must be a UUID"), {
      error: "allowAccountIds must be an array of UUIDs",
    })
    .max(1000, "allowAccountIds must have at most 1000 entries")
    .optional(),
});

const AvatarAccessView = z.object({
  avatar: z.object({
    id: z.string(),
    accountId: z.string(),
    public: z.boolean(),
    allowAccountIds: z.array(z.string()),
  }),
});

const route = createRoute({
  method: "put",
  path: "/avatars/{avatarId}/access",
  operationId: "adminSetAvatarAccess",
  tags: ADMIN_TAG,
  summary: "Make an Avatar public or not, and/or replace the accounts explicitly allowed to use it in videos",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { params: avatarIdParam, body: jsonBody(AvatarAccess) },
  responses: { 200: okJson("The Avatar's access", AvatarAccessView), ...ADMIN_ERRORS },
});

export const setAvatarAccessRoute = openApiApp().openapi(route, async (c) => {
  const { before, after } = await setAvatarAccess(c.env.DB, c.req.valid("param").avatarId, c.req.valid("json"));
  noteAudit(c, { accountId: after.accountId, target: after.id, before, after });
  return c.json({ avatar: after }, 200);
});
