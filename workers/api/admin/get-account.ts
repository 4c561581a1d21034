import { createRoute } from "@hono/zod-openapi";
import { getAccountView } from "./account-service";
import { AccountResponse } from "../resources/account";
import { accountIdParam } from "../schemas/admin";
import { openApiApp } from "../../platform/http/openapi-app";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const route = createRoute({
  method: "get",
  path: "/accounts/{accountId}",
  operationId: "adminGetAccount",
  tags: ADMIN_TAG,
  summary: "An account with its unit balance (held by its limiter)",
  security: ADMIN_AUTH,
  request: { params: accountIdParam },
  responses: { 200: okJson("The account", AccountResponse), ...ADMIN_ERRORS },
});

export const getAccountRoute = openApiApp().openapi(route, async (c) => {
  return c.json({ account: await getAccountView(c.env, c.req.valid("param").accountId) }, 200);
});
