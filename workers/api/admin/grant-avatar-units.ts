import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { accountUnits, getAccountView } from "./account-service";
import { AccountResponse } from "../resources/account";
import { accountIdParam, MAX_AVATAR_UNITS, typeError } from "../schemas/admin";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { noteAudit } from "./audit-trail";
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
  const { accountId } = c.req.valid("param");
  const { delta } = c.req.valid("json");
  const before = await getAccountView(c.env, accountId);
  const account = await accountUnits(c.env, accountId, delta);
  noteAudit(c, {
    accountId: account.id,
    target: account.id,
    before: { avatarUnits: before.avatarUnits },
    after: { avatarUnits: account.avatarUnits, delta },
  });
  return c.json({ account }, 200);
});
