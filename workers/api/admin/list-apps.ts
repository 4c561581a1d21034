import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { getAccountView } from "./account-service";
import { AppView } from "../resources/account";
import { accountIdParam } from "../schemas/admin";
import { apps } from "../../platform/db/schema";
import { openApiApp } from "../../platform/http/openapi-app";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const route = createRoute({
  method: "get",
  path: "/accounts/{accountId}/apps",
  operationId: "adminListApps",
  tags: ADMIN_TAG,
  summary: "The account's Apps (keys are never shown again)",
  security: ADMIN_AUTH,
  request: { params: accountIdParam },
  responses: { 200: okJson("The Apps", z.object({ apps: z.array(AppView) })), ...ADMIN_ERRORS },
});

/** Not in the contract, but operators need to see which Apps exist. */
export const listAppsRoute = openApiApp().openapi(route, async (c) => {
  const { accountId } = c.req.valid("param");
  await getAccountView(c.env, accountId); // 404 for an unknown account
  const rows = await drizzle(c.env.DB).select().from(apps).where(eq(apps.accountId, accountId.toLowerCase())).all();
  const view = (a: (typeof rows)[number]) => ({
    id: a.id,
    accountId: a.accountId,
    name: a.name,
    createdAt: a.createdAt.toISOString(),
    ...(a.revokedAt ? { revokedAt: a.revokedAt.toISOString() } : {}),
  });
  return c.json({ apps: rows.map(view) }, 200);
});
