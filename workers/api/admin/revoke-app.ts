import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { appIdParam } from "../schemas/admin";
import { apps } from "../../platform/db/schema";
import { notFound } from "../../platform/http/errors";
import { openApiApp } from "../../platform/http/openapi-app";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";

const route = createRoute({
  method: "delete",
  path: "/apps/{appId}",
  operationId: "adminRevokeApp",
  tags: ADMIN_TAG,
  summary: "Revoke an App: immediate (every request reads revokedAt); repeating it is harmless",
  security: ADMIN_AUTH,
  request: { params: appIdParam },
  responses: { 204: { description: "Revoked" }, ...ADMIN_ERRORS },
});

export const revokeAppRoute = openApiApp().openapi(route, async (c) => {
  const db = drizzle(c.env.DB);
  const appId = c.req.valid("param").appId.toLowerCase();
  const app = await db
    .select({ id: apps.id, accountId: apps.accountId, revokedAt: apps.revokedAt })
    .from(apps)
    .where(eq(apps.id, appId))
    .get();
  if (!app) throw notFound(`App ${appId} does not exist.`);
  const revokedAt = app.revokedAt ?? new Date();
  if (!app.revokedAt) await db.update(apps).set({ revokedAt }).where(eq(apps.id, appId));
  noteAudit(c, {
    accountId: app.accountId,
    target: appId,
    before: { revokedAt: app.revokedAt?.toISOString() ?? null },
    after: { revokedAt: revokedAt.toISOString() },
  });
  return c.body(null, 204);
});
