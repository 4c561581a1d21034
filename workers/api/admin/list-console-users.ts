import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { listPeople } from "../../accounts/public";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { accountIdParam } from "../schemas/admin";
import { getAccountView } from "./account-service";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { RoleField } from "./people-parts";

const People = z.object({
  people: z.array(z.object({ id: z.string(), email: z.string(), role: RoleField, createdAt: z.string() })),
  invites: z.array(
    z.object({ email: z.string(), role: RoleField.nullable(), createdAt: z.string(), expiresAt: z.string() }),
  ),
});

const route = createRoute({
  method: "get",
  path: "/accounts/{accountId}/console-users",
  operationId: "adminListConsoleUsers",
  tags: ADMIN_TAG,
  summary: "The account's console people (id, email, role) and its pending invites",
  security: ADMIN_AUTH,
  request: { params: accountIdParam },
  responses: { 200: okJson("People and pending invites, oldest first", People), ...ADMIN_ERRORS },
});

export const listConsoleUsersRoute = openApiApp().openapi(route, async (c) => {
  const accountId = c.req.valid("param").accountId.toLowerCase();
  await getAccountView(c.env, accountId); // 404 for an unknown account
  const { people, invites } = await listPeople(c.env, accountId);
  const iso = (d: Date) => d.toISOString();
  return c.json(
    {
      people: people.map((p) => ({ ...p, createdAt: iso(p.createdAt) })),
      invites: invites.map((i) => ({ ...i, createdAt: iso(i.createdAt), expiresAt: iso(i.expiresAt) })),
    },
    200,
  );
});
