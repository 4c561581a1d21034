import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { avatarJobs } from "../../platform/db/schema";
import { notFound } from "../../platform/http/errors";
import { openApiApp } from "../../platform/http/openapi-app";
import { readRateLimit } from "../../accounts/public";
import { APP_AUTH, errors, okJson, READ_ERRORS } from "../../platform/http/route-parts";
import { AvatarJobDetail, serializeAvatarJob } from "../resources/avatar-job";
import { Uuid } from "../resources/fields";

const route = createRoute({
  method: "get",
  path: "/avatar-jobs/{jobId}",
  operationId: "getAvatarJob",
  tags: ["Avatars"],
  summary: "Get an Avatar creation job (poll every 5 to 10 seconds)",
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, readRateLimit("avatar")] as const,
  request: { params: z.strictObject({ jobId: Uuid }) },
  responses: { 200: okJson("The job", AvatarJobDetail, { readLimited: true }), ...errors(...READ_ERRORS, 404) },
});

/** GET /v1/open/avatar-jobs/{jobId} */
export const getAvatarJobRoute = openApiApp().openapi(route, async (c) => {
  const { jobId } = c.req.valid("param");
  const { account } = c.get("caller");
  const job = await drizzle(c.env.DB)
    .select()
    .from(avatarJobs)
    .where(and(eq(avatarJobs.id, jobId), eq(avatarJobs.accountId, account.id)))
    .get();
  if (!job) throw notFound(`Avatar creation job ${jobId} was not found`);
  return c.json({ job: serializeAvatarJob(job) }, 200);
});
