import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { listAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";

const Entry = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.string(),
    action: z.string().meta({ description: "Method and route, e.g. PATCH /accounts/:accountId" }),
    accountId: z.string().nullable(),
    target: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    requestId: z.string().nullable(),
  })
  .meta({ id: "AdminAuditEntry" });

const route = createRoute({
  method: "get",
  path: "/audit",
  operationId: "adminListAudit",
  tags: ADMIN_TAG,
  summary: "The admin audit trail, newest first: who changed what, when, before and after (never a secret)",
  security: ADMIN_AUTH,
  request: {
    query: z.object({
      accountId: z.uuid({ error: "accountId must be a UUID" }).optional(),
      limit: z.coerce
        .number({ error: "limit must be an integer from 1 to 500" })
        .int("limit must be an integer from 1 to 500")
        .min(1, "limit must be an integer from 1 to 500")
        .max(500, "limit must be an integer from 1 to 500")
        .default(100),
    }),
  },
  responses: { 200: okJson("Audit entries, newest first", z.object({ entries: z.array(Entry) })), ...ADMIN_ERRORS },
});

export const listAuditRoute = openApiApp().openapi(route, async (c) => {
  const { accountId, limit } = c.req.valid("query");
  return c.json({ entries: await listAudit(c.env, accountId, limit) }, 200);
});
