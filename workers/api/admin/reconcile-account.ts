import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { getAccountView } from "./account-service";
import { AccountView } from "../resources/account";
import { accountIdParam } from "../schemas/admin";
import { openApiApp } from "../../platform/http/openapi-app";
import { reconcileAccount } from "../../accounts/public";
import { noteAudit } from "./audit-trail";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";
import { okJson } from "../../platform/http/route-parts";

const Reconciled = z.object({
  reconciled: z
    .object({
      deactivated: z.array(z.string()),
      activated: z.array(z.string()),
      captured: z.array(z.string()),
      released: z.array(z.string()),
    })
    .meta({ description: "Job IDs per change" }),
  account: AccountView,
});

const route = createRoute({
  method: "post",
  path: "/accounts/{accountId}/reconcile",
  operationId: "adminReconcileAccount",
  tags: ADMIN_TAG,
  summary: "Re-align the account's limiter (concurrency slots, reserved units) with the job records in D1",
  security: ADMIN_AUTH,
  request: { params: accountIdParam },
  responses: { 200: okJson("What changed, and the account", Reconciled), ...ADMIN_ERRORS },
});

export const reconcileAccountRoute = openApiApp().openapi(route, async (c) => {
  const { accountId } = c.req.valid("param");
  const account = await getAccountView(c.env, accountId); // 404 for an unknown account
  const result = await reconcileAccount(c.env, accountId);
  const { avatarUnits, reservedAvatarUnits } = result.balance;
  noteAudit(c, {
    accountId: account.id,
    target: account.id,
    before: { avatarUnits: account.avatarUnits, reservedAvatarUnits: account.reservedAvatarUnits },
    after: {
      avatarUnits,
      reservedAvatarUnits,
      deactivated: result.deactivated,
      activated: result.activated,
      captured: result.captured,
      released: result.released,
    },
  });
  return c.json(
    {
      reconciled: {
        deactivated: result.deactivated,
        activated: result.activated,
        captured: result.captured,
        released: result.released,
      },
      account: {
        ...account,
        avatarUnits,
        reservedAvatarUnits,
        availableAvatarUnits: avatarUnits - reservedAvatarUnits,
      },
    },
    200,
  );
});
