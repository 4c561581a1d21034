import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { accountUnits, createAccount, getAccountView, patchAccount } from "../admin/account-service";
import { setAvatarAccess } from "../admin/avatar-access";
import {
  accountIdParam,
  appIdParam,
  AvatarAccessSchema,
  avatarIdParam,
  CreateAccountSchema,
  CreateAppSchema,
  PatchAccountSchema,
  UnitsDeltaSchema,
} from "../admin/schemas";
import { adminAuth } from "../auth/admin-auth";
import { newApiKey, sha256Hex } from "../auth/crypto";
import { accounts, apps } from "../db/schema";
import type { AppEnv } from "../env";
import { limitBody } from "../http/body-limit";
import { notFound } from "../http/errors";
import { validate } from "../http/validation";
import { reconcileAccount } from "../limiter/reconcile";
import { adminConsoleInviteRoutes } from "./admin-console-invites";
import { adminActiveJobsRoutes } from "../admin/active-jobs";

/** Operator admin API (docs/admin-api.md). Every route: Authorization: Bearer ADMIN_TOKEN. */
export const adminRoutes = new Hono<AppEnv>();

adminRoutes.use("*", adminAuth, limitBody);
adminRoutes.route("/", adminConsoleInviteRoutes); // web console invites (docs/console.md)
adminRoutes.route("/", adminActiveJobsRoutes); // GET /jobs/active: what the pipeline is working on

adminRoutes.post("/accounts", validate("json", CreateAccountSchema), async (c) => {
  const account = await createAccount(c.env, c.req.valid("json"));
  return c.json({ account }, 201);
});

adminRoutes.get("/accounts/:accountId", validate("param", accountIdParam), async (c) => {
  return c.json({ account: await getAccountView(c.env, c.req.valid("param").accountId) });
});

adminRoutes.patch("/accounts/:accountId", validate("param", accountIdParam), validate("json", PatchAccountSchema), async (c) => {
  const account = await patchAccount(c.env, c.req.valid("param").accountId, c.req.valid("json"));
  return c.json({ account });
});

/** Atomic grant/withdrawal of Avatar Creations: the balance changes by `delta` inside the account's limiter. */
adminRoutes.post(
  "/accounts/:accountId/avatar-units",
  validate("param", accountIdParam),
  validate("json", UnitsDeltaSchema),
  async (c) => {
    const account = await accountUnits(c.env, c.req.valid("param").accountId, c.req.valid("json").delta);
    return c.json({ account });
  },
);

/** Re-aligns the limiter (concurrency slots, reserved units) with the job records in D1. */
adminRoutes.post("/accounts/:accountId/reconcile", validate("param", accountIdParam), async (c) => {
  const { accountId } = c.req.valid("param");
  const account = await getAccountView(c.env, accountId); // 404 for an unknown account
  const result = await reconcileAccount(c.env, accountId);
  return c.json({
    reconciled: { deactivated: result.deactivated, activated: result.activated, captured: result.captured, released: result.released },
    account: { ...account, avatarUnits: result.balance.avatarUnits, reservedAvatarUnits: result.balance.reservedAvatarUnits, availableAvatarUnits: result.balance.avatarUnits - result.balance.reservedAvatarUnits },
  });
});

adminRoutes.post(
  "/accounts/:accountId/apps",
  validate("param", accountIdParam),
    validate("json", CreateAppSchema),
  async (c) => {
    const { accountId } = c.req.valid("param");
    const db = drizzle(c.env.DB);
    const owner = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId.toLowerCase())).get();
    if (!owner) throw notFound(`Account ${accountId} does not exist.`);
    const id = crypto.randomUUID();
    // The key is returned once, here; only its SHA-256 is stored.
    const apiKey = newApiKey();
    const app = { id, accountId: owner.id, name: c.req.valid("json").name ?? `App ${id.slice(0, 8)}`, createdAt: new Date() };
    await db.insert(apps).values({ ...app, keyHash: await sha256Hex(apiKey) });
    return c.json({ app: { ...app, createdAt: app.createdAt.toISOString() }, apiKey }, 201);
  },
);

/** Not in the contract, but operators need to see which Apps exist (keys are never shown again). */
adminRoutes.get("/accounts/:accountId/apps", validate("param", accountIdParam), async (c) => {
  const { accountId } = c.req.valid("param");
  await getAccountView(c.env, accountId);
  const rows = await drizzle(c.env.DB).select().from(apps).where(eq(apps.accountId, accountId.toLowerCase())).all();
  return c.json({
    apps: rows.map((a) => ({
      id: a.id,
      accountId: a.accountId,
      name: a.name,
      createdAt: a.createdAt.toISOString(),
      ...(a.revokedAt ? { revokedAt: a.revokedAt.toISOString() } : {}),
    })),
  });
});

/** Revocation is immediate: appAuth reads revokedAt on every request. Repeating it is harmless (204). */
adminRoutes.delete("/apps/:appId", validate("param", appIdParam), async (c) => {
  const db = drizzle(c.env.DB);
  const appId = c.req.valid("param").appId.toLowerCase();
  const app = await db.select({ id: apps.id, revokedAt: apps.revokedAt }).from(apps).where(eq(apps.id, appId)).get();
  if (!app) throw notFound(`App ${appId} does not exist.`);
  if (!app.revokedAt) await db.update(apps).set({ revokedAt: new Date() }).where(eq(apps.id, appId));
  return c.body(null, 204);
});

adminRoutes.put("/avatars/:avatarId/access", validate("param", avatarIdParam), validate("json", AvatarAccessSchema), async (c) => {
  const avatar = await setAvatarAccess(c.env.DB, c.req.valid("param").avatarId, c.req.valid("json"));
  return c.json({ avatar });
});
