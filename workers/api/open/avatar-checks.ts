/**
 * POST /v1/open/avatar-checks — the Avatar pre-flight check: would POST /avatars accept this image?
 * Same authentication, access (Open API access; works while Avatar creation is disabled), URL rules and
 * error envelope as POST /avatars; answered synchronously (docs/avatar-image-rules.md). No job, no unit
 * reserved, no Avatar. It costs compute, so it takes a slot of the Avatar per-minute creation window
 * (shared with POST /avatars), never of the hourly or 24-hour quota (docs/limits.md).
 */
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireOpenApiAccess } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { AvatarCheck, checkAvatarImage } from "../avatar-checks/check";
import { limitBody } from "../../platform/http/body-limit";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { admissionError, limiterFor } from "../../accounts/public";
import { APP_AUTH, errors, okJson } from "../../platform/http/route-parts";
import { SourceUrl } from "../resources/fields";
import { checkSourceAddress } from "../../platform/http/source-address";

const AvatarCheckRequest = z
  .strictObject({
    imageUrl: SourceUrl.meta({
      description: "Public http(s) URL of the JPEG or PNG portrait you would send to POST /avatars",
    }),
  })
  .meta({ id: "AvatarCheckRequest" });

const AVATAR_CHECK_DESCRIPTION =
  "Runs the same download, image rules and face checks as an Avatar creation job, synchronously (a reachable 2 MP photo is answered within 5 s), and says whether the image would be accepted; if not, why (reason, one of the job.error.reason values) and a sentence with the measured value and the rule (detail), plus what was measured on the face. Creates no job and no Avatar and reserves no Avatar Creation. Works while Avatar creation is disabled. Counts toward the Avatar per-minute creation limit (shared with POST /avatars), not toward the hourly or 24-hour quota. 503 when the image cannot be checked right now (retry).";

const avatarCheckRoute = createRoute({
  method: "post",
  path: "/avatar-checks",
  operationId: "checkAvatarImage",
  tags: ["Avatars"],
  summary: "Check whether an image would become an Avatar (pre-flight, synchronous)",
  description: AVATAR_CHECK_DESCRIPTION,
  security: APP_AUTH,
  middleware: [appAuth, requireOpenApiAccess, limitBody, jsonInput()] as const,
  request: { body: jsonBody(AvatarCheckRequest) },
  responses: {
    200: okJson("The verdict: acceptable, or the reason and a sentence with the measured value", AvatarCheck),
    ...errors(400, 401, 403, 429, 500, 503),
  },
});

export const avatarCheckRoutes = openApiApp().openapi(avatarCheckRoute, async (c) => {
  const { imageUrl } = c.req.valid("json");
  checkSourceAddress(c.env, "imageUrl", imageUrl); // refused requests count nowhere
  const { account } = c.get("caller");
  const limiter = limiterFor(c.env, account.id);
  const checkId = crypto.randomUUID();
  const admission = await limiter.admitAvatarCheck(checkId, account.limits.avatar, Date.now());
  if (!admission.ok) throw admissionError(admission);
  try {
    return c.json(await checkAvatarImage(c.env, imageUrl), 200);
  } finally {
    await limiter.endAvatarCheck(checkId);
  }
});
