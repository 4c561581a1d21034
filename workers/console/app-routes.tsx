import { and, desc, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import type { Context } from "hono";
import { newApiKey, sha256Hex } from "../platform/crypto/digest";
import { apps } from "../platform/db/schema";
import { notFound } from "../platform/http/errors";
import { type ConsoleEnv, pageChrome } from "./context";
import { setKeyFlash, takeKeyFlash } from "./key-flash";
import { errorFlash, field, noticeFrom } from "./notices";
import { AppsPage, type AppsPageProps } from "./pages/apps";
import type { Flash } from "./pages/layout";
import { assertOwner } from "./roles";

async function renderApps(
  c: Context<ConsoleEnv>,
  flash: Flash | null,
  secret?: AppsPageProps["secret"],
  status: 200 | 400 = 200,
) {
  const { account } = c.get("session");
  const rows = await drizzle(c.env.DB)
    .select()
    .from(apps)
    .where(eq(apps.accountId, account.id))
    .orderBy(desc(apps.createdAt))
    .all();
  // A page holding a key must never be stored by the browser or a proxy (securityHeaders sets no-store on HTML).
  return c.html(<AppsPage {...pageChrome(c)} flash={flash} apps={rows} secret={secret} />, status);
}

/** An active App of the signed-in person's account; anything else (another account's, disabled, unknown) is 404. */
async function ownActiveApp(c: Context<ConsoleEnv>, appId: string) {
  const app = /^[0-9a-f-]{36}$/.test(appId)
    ? await drizzle(c.env.DB)
        .select()
        .from(apps)
        .where(and(eq(apps.id, appId), eq(apps.accountId, c.get("session").account.id), isNull(apps.revokedAt)))
        .get()
    : undefined;
  if (!app) throw notFound(`App ${appId.slice(0, 36)} was not found`);
  return app;
}

export const appRoutes = new Hono<ConsoleEnv>()
  .get("/apps", async (c) => {
    const shown = await takeKeyFlash(c);
    if (shown) return renderApps(c, { kind: "notice", text: shown.notice }, shown);
    return renderApps(c, noticeFrom(c.req.query("notice")));
  })
  .post("/apps", async (c) => {
    assertOwner(c);
    const name = field(await c.req.parseBody(), "name").trim();
    if (name.length > 128) return renderApps(c, errorFlash("Name must be at most 128 characters"), undefined, 400);
    const id = crypto.randomUUID();
    const apiKey = newApiKey(); // shown once, in this response; only its SHA-256 is stored
    const appName = name || `App ${id.slice(0, 8)}`;
    await drizzle(c.env.DB)
      .insert(apps)
      .values({
        id,
        accountId: c.get("session").account.id,
        name: appName,
        keyHash: await sha256Hex(apiKey),
        createdAt: new Date(),
      });
    await setKeyFlash(c, { appId: id, apiKey, appName, notice: `App ${appName} created.` });
    return c.redirect("/console/apps", 303);
  })
  .post("/apps/:appId/rotate", async (c) => {
    assertOwner(c);
    const app = await ownActiveApp(c, c.req.param("appId"));
    const apiKey = newApiKey();
    await drizzle(c.env.DB)
      .update(apps)
      .set({ keyHash: await sha256Hex(apiKey) })
      .where(eq(apps.id, app.id));
    await setKeyFlash(c, {
      appId: app.id,
      apiKey,
      appName: app.name,
      notice: `Key of ${app.name} rotated: the previous key no longer works.`,
    });
    return c.redirect("/console/apps", 303);
  })
  .post("/apps/:appId/disable", async (c) => {
    assertOwner(c);
    const app = await ownActiveApp(c, c.req.param("appId"));
    await drizzle(c.env.DB).update(apps).set({ revokedAt: new Date() }).where(eq(apps.id, app.id));
    return c.redirect("/console/apps?notice=app-disabled", 303);
  });
