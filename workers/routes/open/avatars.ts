import { and, count, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { requireAvatarCreation, requireOpenApiAccess } from "../../auth/access";
import { appAuth } from "../../auth/app-auth";
import { avatarJobs, avatars } from "../../db/schema";
import type { AppEnv } from "../../env";
import { limitBody } from "../../http/body-limit";
import { notFound } from "../../http/errors";
import { publicBaseUrl } from "../../http/base-url";
import { validate } from "../../http/validation";
import { admissionError, limiterFor } from "../../limiter/client";
import { readRateLimit } from "../../limiter/read-limit";
import { operations as ops, honoPath } from "../../openapi/contract";
import { afterPosition, finishPage, newestFirst } from "../../pagination/keyset";
import { pageRequest } from "../../pagination/page-request";
import { enqueueJob } from "../../queue/enqueue";
import { serializeAvatar } from "../../serializers/avatar";
import { checkSourceAddress } from "./source-address";

const MOUNT = "/v1/open";

/** Default name of a job (and of the Avatar it creates) when the request gives none. */
export const defaultAvatarName = (jobId: string) => `Avatar ${jobId.slice(0, 8)}`;

export const avatarRoutes = new Hono<AppEnv>()
  // POST /avatars: admission (windows, concurrency, one unit reserved) in the account's DO, then the
  // queued row, then the queue message (a lost send is re-sent by the sweep).
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
      const jobId = crypto.randomUUID();
      const now = Date.now();
      const limiter = limiterFor(c.env, account.id);
      const admission = await limiter.admitAvatarCreation(jobId, account.limits.avatar, now);
      if (!admission.ok) throw admissionError(admission);
      try {
        await drizzle(c.env.DB)
          .insert(avatarJobs)
          .values({
            id: jobId,
            accountId: account.id,
            appId,
            name: body.name ?? defaultAvatarName(jobId),
            status: "queued",
            imageUrl: body.imageUrl,
            unitState: "reserved",
            createdAt: new Date(now),
            updatedAt: new Date(now),
          });
      } catch (err) {
        // Not stored: give the slot and the unit back at once (reconciliation would, after its grace period).
        await limiter.finishAvatarJob(jobId).catch(() => undefined);
        throw err;
      }
      await enqueueJob(c.env, { kind: "avatar", jobId });
      return c.json({ jobId, status: "queued" as const }, 200);
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
