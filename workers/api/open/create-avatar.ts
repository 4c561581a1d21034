import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireAvatarCreation, requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { limitBody } from "../../platform/http/body-limit";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { createAvatarJob } from "../jobs/create-avatar-job";
import { readRateLimitHeaders } from "../../accounts/public";
import { APP_AUTH, errors, okJson } from "../../platform/http/route-parts";
import { Name, SourceUrl, Uuid } from "../resources/fields";
import { checkSourceAddress } from "../../platform/http/source-address";

export const CreateAvatarRequest = z
  .strictObject({
    imageUrl: SourceUrl.meta({
      description: "Public http(s) URL of a JPEG or PNG portrait (validated asynchronously)",
    }),
    name: Name.optional().meta({
      description: "Job and Avatar name, 1 to 128 characters; default derived from the job ID",
    }),
  })
  .meta({ id: "CreateAvatarRequest" });

/** Top-level fields of features this version lacks (501 unsupported_input instead of 400). */
const AVATAR_UNSUPPORTED_FIELDS = {
  callbackUrl: "Avatar creation sends no callbacks; poll GET /avatar-jobs/{jobId}",
  webhookUrl: "Avatar creation sends no callbacks; poll GET /avatar-jobs/{jobId}",
  image: "uploads are unavailable; send a public imageUrl",
  imageBase64: "uploads are unavailable; send a public imageUrl",
  file: "uploads are unavailable; send a public imageUrl",
};

const CreateAvatarResponse = z
  .object({ jobId: Uuid, status: z.literal("queued") })
  .meta({ id: "CreateAvatarResponse" });

const route = createRoute({
  method: "post",
  path: "/avatars",
  operationId: "createAvatar",
  tags: ["Avatars"],
  summary: "Queue an Avatar creation job from a source image URL",
  description:
    "Reserves one Avatar Creation on acceptance. The image is downloaded and checked asynchronously (JPEG or PNG, at most 5 MiB, shorter side ≥ 340 px, opaque, exactly one face); a violation ends the job in failed.",
  security: APP_AUTH,
  middleware: [
    appAuth,
    requireOpenApiAccess,
    requireAvatarCreation,
    readRateLimitHeaders("avatar"),
    limitBody,
    jsonInput({ unsupported: AVATAR_UNSUPPORTED_FIELDS }),
  ] as const,
  request: { body: jsonBody(CreateAvatarRequest, { unsupported: AVATAR_UNSUPPORTED_FIELDS }) },
  responses: {
    200: okJson("Job accepted", CreateAvatarResponse, { readLimited: true }),
    ...errors(400, 401, 402, 403, 429, 500, 501, 503),
  },
});

/** POST /v1/open/avatars: the shared creation path (jobs/create-avatar-job.ts), also used by the console. */
export const createAvatarRoute = openApiApp().openapi(route, async (c) => {
  const body = c.req.valid("json");
  checkSourceAddress(c.env, "imageUrl", body.imageUrl);
  const { account, appId } = c.get("caller");
  return c.json(
    await createAvatarJob(c.env, { account, creator: { appId }, name: body.name, imageUrl: body.imageUrl }),
    200,
  );
});
