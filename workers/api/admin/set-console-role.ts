import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { setRole } from "../../accounts/public";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { PersonView, RoleField, userIdParam } from "./people-parts";

const route = createRoute({
  method: "patch",
  path: "/console-users/{userId}",
  operationId: "adminSetConsoleRole",
  tags: ADMIN_TAG,
  summary: "Change a console person's role (owner: Apps, keys, people, invites; member: Avatars, videos, usage)",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { params: userIdParam, body: jsonBody(z.strictObject({ role: RoleField })) },
  responses: { 200: okJson("The person", z.object({ person: PersonView })), ...ADMIN_ERRORS },
});

export const setConsoleRoleRoute = openApiApp().openapi(route, async (c) => {
  const { person, before } = await setRole(c.env, c.req.valid("param").userId, c.req.valid("json").role);
  noteAudit(c, {
    accountId: person.accountId,
    target: person.id,
    before: { role: before },
    after: { role: person.role },
  });
  return c.json({ person }, 200);
});
