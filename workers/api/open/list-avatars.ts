import { createRoute } from "@hono/zod-openapi";
import { and, count, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { avatars } from "../../platform/db/schema";
import { publicBaseUrl } from "../../platform/http/base-url";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { afterPosition, finishPage, newestFirst } from "../pagination/keyset";
import { PaginationQuery } from "../pagination/page-params";
import { pageRequest } from "../pagination/page-request";
import { AvatarList, serializeAvatar } from "../resources/avatar";

export const ListAvatarsQuery = z.strictObject({ ...PaginationQuery });

const route = createRoute({
  method: "get",
  path: "/avatars",
  operationId: "listAvatars",
  tags: ["Avatars"],
  summary: "List the Avatars owned by the account (API and console), newest first",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, readRateLimit("avatar")] as const,
  request: { query: ListAvatarsQuery },
  responses: { 200: okJson("One page of Avatars", AvatarList, { readLimited: true }), ...errors(...READ_ERRORS) },
});

/** GET /v1/open/avatars */
export const listAvatarsRoute = openApiApp().openapi(route, async (c) => {
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
  return c.json(
    { avatars: page.items.map((a) => serializeAvatar(c.env, baseUrl, a, account.id)), pagination: page.pagination },
    200,
  );
});
