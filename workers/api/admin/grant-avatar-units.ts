import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { accountUnits } from "./account-service";
import { AccountResponse } from "../resources/account";
import { accountIdParam, MAX_AVATAR_UNITS, typeError } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

/** Atomic grant (or, negative, withdrawal) of Avatar Creations. */
const UnitsDelta = z.strictObject({
  delta: z
    .number(typeError("delta", "must be an integer"))
    .int("delta must be an integer")
    .min(-MAX_AVATAR_UNITS, `delta must be at least -${MAX_AVATAR_UNITS}`)
    .max(MAX_AVATAR_UNITS, `delta must be at most ${MAX_AVATAR_UNITS}`),
});

const route = createRoute({
  method: "post",
  path: "/accounts/{accountId}/avatar-units",
  operationId: "adminGrantAvatarUnits",
  tags: ADMIN_TAG,
  summary: "Grant (delta > 0) or withdraw (delta < 0) Avatar Creations, atomically inside the account's limiter",
  security: ADMIN_AUTH,
  middleware: [jsonInput()] as const,
  request: { params: accountIdParam, body: jsonBody(UnitsDelta) },
  responses: { 200: okJson("The account", AccountResponse), ...ADMIN_ERRORS },
});

export const grantAvatarUnitsRoute = openApiApp().openapi(route, async (c) => {
  const account = await accountUnits(c.env, c.req.valid("param").accountId, c.req.valid("json").delta);
  return c.json({ account }, 200);
});
