import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { removePerson } from "../../accounts/public";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { PersonView, userIdParam } from "./people-parts";

const route = createRoute({
  method: "delete",
  path: "/console-users/{userId}",
  operationId: "adminRemoveConsoleUser",
  tags: ADMIN_TAG,
  summary:
    "Remove a console person: every session ends (the cookie fails at the next request), pending invites of the email are revoked",
  security: ADMIN_AUTH,
  request: { params: userIdParam },
  responses: {
    200: okJson(
      "Who was removed, and how many sessions and invites ended",
      z.object({ removed: PersonView, sessionsEnded: z.int(), invitesRevoked: z.int() }),
    ),
    ...ADMIN_ERRORS,
  },
});

export const removeConsoleUserRoute = openApiApp().openapi(route, async (c) => {
  const { person, sessionsEnded, invitesRevoked } = await removePerson(c.env, c.req.valid("param").userId);
  noteAudit(c, {
    accountId: person.accountId,
    target: person.id,
    before: person,
    after: { sessionsEnded, invitesRevoked },
  });
  return c.json({ removed: person, sessionsEnded, invitesRevoked }, 200);
});
