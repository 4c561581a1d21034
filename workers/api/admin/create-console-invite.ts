import { createRoute, z } from "@hono/zod-openapi";
import { publicBaseUrl } from "../../platform/http/base-url";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { createInvite } from "../../accounts/public";
import { RoleField } from "./people-parts";

const route = createRoute({
  method: "post",
  path: "/accounts/{accountId}/console-invites",
  operationId: "adminCreateConsoleInvite",
  tags: ADMIN_TAG,
  security: ADMIN_AUTH,
  summary:
    "Invite a person into an account's web console (one-time link, valid 24 h) with a role (omitted: the first person is owner, later ones members, an existing person keeps theirs)",
  middleware: [jsonInput()] as const,
  request: {
    params: z.object({ accountId: z.uuid() }),
    body: jsonBody(z.object({ email: z.string().min(3).max(254), role: RoleField.optional() }).strict()),
  },
  responses: {
    201: {
      description: "The invite; `url` opens the page where the person sets a password",
      content: {
        "application/json": {
          schema: z.object({
            invite: z.object({
              accountId: z.string(),
              email: z.string(),
              role: RoleField.nullable(),
              expiresAt: z.string(),
            }),
            url: z.string(),
          }),
        },
      },
    },
    ...ADMIN_ERRORS,
  },
});

/** POST /v1/admin/accounts/{accountId}/console-invites (mounted inside adminRoutes: admin token required). */
export const createConsoleInviteRoute = openApiApp().openapi(route, async (c) => {
  const { accountId } = c.req.valid("param");
  const { email, role } = c.req.valid("json");
  const invite = await createInvite(c.env, accountId, email, role ?? null);
  const url = `${publicBaseUrl(c)}/console/invite/${invite.token}`;
  // Never the token or the link: whoever holds it becomes the person.
  noteAudit(c, {
    accountId: invite.accountId,
    target: invite.email,
    after: { email: invite.email, role: invite.role, expiresAt: invite.expiresAt.toISOString() },
  });
  return c.json(
    {
      invite: {
        accountId: invite.accountId,
        email: invite.email,
        role: invite.role,
        expiresAt: invite.expiresAt.toISOString(),
      },
      url,
    },
    201,
  );
});
