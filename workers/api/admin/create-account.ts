import { createRoute } from "@hono/zod-openapi";
import { createAccount } from "./account-service";
import { AccountResponse } from "../resources/account";
import { CreateAccountSchema } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const route = createRoute({
  method: "post",
  path: "/accounts",
  operationId: "adminCreateAccount",
  tags: ADMIN_TAG,
  summary:
    "Create an account (private beta defaults: active, every access flag off, 0 units, Avatar limits at the ceilings)",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { body: jsonBody(CreateAccountSchema) },
  responses: { 201: okJson("The account", AccountResponse), ...ADMIN_ERRORS },
});

export const createAccountRoute = openApiApp().openapi(route, async (c) => {
  const account = await createAccount(c.env, c.req.valid("json"));
  noteAudit(c, { accountId: account.id, target: account.id, after: account });
  return c.json({ account }, 201);
});
