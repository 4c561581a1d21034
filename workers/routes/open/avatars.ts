import { and, count, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { requireAvatarCreation, requireOpenApiAccess } from "../../auth/access";
import { appAuth } from "../../auth/app-auth";
import { avatars } from "../../db/schema";
import type { AppEnv } from "../../env";
import { limitBody } from "../../http/body-limit";
import { notFound } from "../../http/errors";
import { publicBaseUrl } from "../../http/base-url";
import { validate } from "../../http/validation";
import { createAvatarJob } from "../../jobs/create-avatar-job";
import { readRateLimit } from "../../limiter/read-limit";
import { operations as ops, honoPath } from "../../openapi/contract";
import { afterPosition, finishPage, newestFirst } from "../../pagination/keyset";
import { pageRequest } from "../../pagination/page-request";
import { serializeAvatar } from "../../serializers/avatar";
import { checkSourceAddress } from "./source-address";

const MOUNT = "/v1/open";

export const avatarRoutes = new Hono<AppEnv>()
  // POST /avatars: the shared creation path (jobs/create-avatar-job.ts), also used by the console.
  .post(
    honoPath(ops.createAvatar, MOUNT),
    appAuth,
    requireOpenApiAccess,
    requireAvatarCreation,
    limitBody,
    validate("json", ops.createAvatar.body, { unsupported: ops.createAvatar.unsupported }),
    async (c) => {
      const body = c.req.valid("json");
      checkSourceAddress(c.env, "imageUrl", body.imageUrl);
      const { account, appId } = c.get("caller");
      return c.json(await createAvatarJob(c.env, { account, appId, name: body.name, imageUrl: body.imageUrl }), 200);
    },
  )
  .get(
    honoPath(ops.listAvatars, MOUNT),
    appAuth,
    requireOpenApiAccess,
    readRateLimit("avatar"),
    validate("query", ops.listAvatars.query),
    async (c) => {
      const { account } = c.get("caller");
      const req = await pageRequest(c.env.SIGNING_SECRET, "avatars", account.id, c.req.valid("query"));
      const db = drizzle(c.env.DB);
      const owned = eq(avatars.accountId, account.id);
      const [rows, [total]] = await db.batch([
        db
          .select()
          .from(avatars)
          .where(and(owned, afterPosition(avatars.createdAt, avatars.id, req.after)))
          .orderBy(...newestFirst(avatars.createdAt, avatars.id))
          .limit(req.scope.pageSize + 1),
        db.select({ n: count() }).from(avatars).where(owned),
      ]);
      const page = await finishPage(c.env.SIGNING_SECRET, req, rows, total?.n ?? 0);
      const baseUrl = publicBaseUrl(c);
      return c.json({ avatars: page.items.map((a) => serializeAvatar(c.env, baseUrl, a)), pagination: page.pagination }, 200);
    },
  )
  .get(
    honoPath(ops.getAvatar, MOUNT),
    appAuth,
    requireOpenApiAccess,
    readRateLimit("avatar"),
    validate("param", ops.getAvatar.params),
    async (c) => {
      const { avatarId } = c.req.valid("param");
      const { account } = c.get("caller");
      const avatar = await drizzle(c.env.DB)
        .select()
        .from(avatars)
        .where(and(eq(avatars.id, avatarId), eq(avatars.accountId, account.id)))
        .get();
      // Another account's Avatar is indistinguishable from a missing one.
      if (!avatar) throw notFound(`Avatar ${avatarId} was not found`);
      return c.json({ avatar: serializeAvatar(c.env, publicBaseUrl(c), avatar) }, 200);
    },
  );
