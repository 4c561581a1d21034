import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { AppView } from "../resources/account";
import { accountIdParam, adminName } from "../schemas/admin";
import { newApiKey, sha256Hex } from "../../platform/crypto/digest";
import { accounts, apps } from "../../platform/db/schema";
import { notFound } from "../../platform/http/errors";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const route = createRoute({
  method: "post",
  path: "/accounts/{accountId}/apps",
  operationId: "adminCreateApp",
  tags: ADMIN_TAG,
  summary: "Create an App of the account; its API key is returned once, here (only its SHA-256 is stored)",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { params: accountIdParam, body: jsonBody(z.strictObject({ name: adminName.optional() })) },
  responses: {
    201: okJson("The App and its API key", z.object({ app: AppView, apiKey: z.string() })),
    ...ADMIN_ERRORS,
  },
});

export const createAppRoute = openApiApp().openapi(route, async (c) => {
  const { accountId } = c.req.valid("param");
  const db = drizzle(c.env.DB);
  const owner = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, accountId.toLowerCase()))
    .get();
  if (!owner) throw notFound(`Account ${accountId} does not exist.`);
  const id = crypto.randomUUID();
  const apiKey = newApiKey();
  const app = {
    id,
    accountId: owner.id,
    name: c.req.valid("json").name ?? `App ${id.slice(0, 8)}`,
    createdAt: new Date(),
  };
  await db.insert(apps).values({ ...app, keyHash: await sha256Hex(apiKey) });
  // Never the key (nor its hash): the trail says that an App and a key were made.
  noteAudit(c, { accountId: owner.id, target: id, after: { id, name: app.name } });
  return c.json({ app: { ...app, createdAt: app.createdAt.toISOString() }, apiKey }, 201);
});
