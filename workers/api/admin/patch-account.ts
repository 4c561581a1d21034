import { createRoute } from "@hono/zod-openapi";
import { getAccountView, patchAccount } from "./account-service";
import { AccountResponse } from "../resources/account";
import { accountIdParam, PatchAccountSchema } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const route = createRoute({
  method: "patch",
  path: "/accounts/{accountId}",
  operationId: "adminPatchAccount",
  tags: ADMIN_TAG,
  summary: "Change an account: the create fields, all optional; avatarUnits sets the absolute balance",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { params: accountIdParam, body: jsonBody(PatchAccountSchema) },
  responses: { 200: okJson("The account", AccountResponse), ...ADMIN_ERRORS },
});

export const patchAccountRoute = openApiApp().openapi(route, async (c) => {
  const { accountId } = c.req.valid("param");
  const before = await getAccountView(c.env, accountId);
  const account = await patchAccount(c.env, accountId, c.req.valid("json"));
  noteAudit(c, { accountId: account.id, target: account.id, before, after: account });
  return c.json({ account }, 200);
});
