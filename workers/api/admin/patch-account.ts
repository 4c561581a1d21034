import { createRoute } from "@hono/zod-openapi";
import { patchAccount } from "./account-service";
import { AccountResponse } from "../resources/account";
import { accountIdParam, PatchAccountSchema } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
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
  const account = await patchAccount(c.env, c.req.valid("param").accountId, c.req.valid("json"));
  return c.json({ account }, 200);
});
