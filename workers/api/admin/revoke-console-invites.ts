import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { revokeInvites } from "../../accounts/public";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { accountIdParam } from "../schemas/admin";
import { getAccountView } from "./account-service";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";

const route = createRoute({
  method: "delete",
  path: "/accounts/{accountId}/console-invites",
  operationId: "adminRevokeConsoleInvites",
  tags: ADMIN_TAG,
  summary: "Revoke the account's pending invites (all, or those of `email`): their links stop working",
  security: ADMIN_AUTH,
  request: {
    params: accountIdParam,
    query: z.object({ email: z.string().min(3).max(254).optional() }),
  },
  responses: { 200: okJson("How many invites were revoked", z.object({ revoked: z.int() })), ...ADMIN_ERRORS },
});

export const revokeConsoleInvitesRoute = openApiApp().openapi(route, async (c) => {
  const accountId = c.req.valid("param").accountId.toLowerCase();
  await getAccountView(c.env, accountId); // 404 for an unknown account
  const { email } = c.req.valid("query");
  const revoked = await revokeInvites(c.env, accountId, email);
  noteAudit(c, { accountId, target: email ?? null, after: { revoked } });
  return c.json({ revoked }, 200);
});
