import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { avatars } from "../../platform/db/schema";
import { publicBaseUrl } from "../../platform/http/base-url";
import { notFound } from "../../platform/http/errors";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { AvatarDetail, serializeAvatar } from "../resources/avatar";
import { Uuid } from "../resources/fields";

const route = createRoute({
  method: "get",
  path: "/avatars/{avatarId}",
  operationId: "getAvatar",
  tags: ["Avatars"],
  summary: "Get an Avatar owned by the account",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, readRateLimit("avatar")] as const,
  request: { params: z.strictObject({ avatarId: Uuid }) },
  responses: { 200: okJson("The Avatar", AvatarDetail, { readLimited: true }), ...errors(...READ_ERRORS, 404) },
});

/** GET /v1/open/avatars/{avatarId} */
export const getAvatarRoute = openApiApp().openapi(route, async (c) => {
  const { avatarId } = c.req.valid("param");
  const { account } = c.get("caller");
  const avatar = await drizzle(c.env.DB)
    .select()
    .from(avatars)
    .where(and(eq(avatars.id, avatarId), eq(avatars.accountId, account.id)))
    .get();
  // Another account's Avatar is indistinguishable from a missing one.
  if (!avatar) throw notFound(`Avatar ${avatarId} was not found`);
  return c.json({ avatar: serializeAvatar(c.env, publicBaseUrl(c), avatar, account.id) }, 200);
});
