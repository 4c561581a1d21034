import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { endSessionsOf, findPerson } from "../../accounts/public";
import { notFound } from "../../platform/http/errors";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { userIdParam } from "./people-parts";

const route = createRoute({
  method: "delete",
  path: "/console-users/{userId}/sessions",
  operationId: "adminEndConsoleSessions",
  tags: ADMIN_TAG,
  summary: "End every session of a console person (signed out everywhere at the next request; the password stays)",
  security: ADMIN_AUTH,
  request: { params: userIdParam },
  responses: { 200: okJson("How many sessions ended", z.object({ sessionsEnded: z.int() })), ...ADMIN_ERRORS },
});

export const endConsoleSessionsRoute = openApiApp().openapi(route, async (c) => {
  const { userId } = c.req.valid("param");
  const person = await findPerson(c.env, userId);
  if (!person) throw notFound(`Person ${userId} does not exist.`);
  const sessionsEnded = await endSessionsOf(c.env, person.id);
  noteAudit(c, { accountId: person.accountId, target: person.id, after: { sessionsEnded } });
  return c.json({ sessionsEnded }, 200);
});
