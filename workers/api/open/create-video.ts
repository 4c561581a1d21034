import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireOpenApiAccess, requireVideoAccess, requireVideoCreation } from "../../platform/auth/access";
import { appAuth } from "../../platform/auth/app-auth";
import { limitBody } from "../../platform/http/body-limit";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { createVideoJob } from "../jobs/create-video-job";
import { readRateLimitHeaders } from "../../accounts/public";
import { APP_AUTH, errors, okJson } from "../../platform/http/route-parts";
import { Name, SourceUrl, Timestamp, Uuid } from "../resources/fields";
import { VIDEO_JOB_STATUSES } from "../resources/video-job";
import { normalizeVideoInput } from "../idempotency/fingerprint";
import { VideoSettingsInput } from "../schemas/video-settings";
import { checkSourceAddress } from "../../platform/http/source-address";

export const CreateVideoRequest = z
  .strictObject({
    avatarId: Uuid.meta({
      description: "An Avatar the account owns, a public Avatar, or one explicitly allowed for the account",
    }),
    audioUrl: SourceUrl.meta({
      description: "Public http(s) URL of the audio (at most 500 MiB); signed query parameters allowed",
    }),
    backgroundUrl: SourceUrl.optional().meta({
      description: "Public http(s) URL of a PNG, JPEG or WebP background (at most 50 MiB)",
    }),
    name: Name.optional().meta({ description: "1 to 128 characters; default derived from the job ID" }),
    requestId: Uuid.optional().meta({ description: "Retry key, shared across all Apps of the account" }),
    video: VideoSettingsInput.optional(),
  })
  .meta({ id: "CreateVideoRequest" });

const NO_CALLBACKS = "the video API sends no callbacks or webhooks; poll GET /video-jobs/{jobId}";
const NO_TTS = "text-to-speech is unavailable; send an audioUrl";
const NO_UPLOADS = "uploads are unavailable; send a public audioUrl";

/** Top-level fields of features this version lacks (501 unsupported_input instead of 400). */
const VIDEO_UNSUPPORTED_FIELDS = {
  callbackUrl: NO_CALLBACKS,
  webhookUrl: NO_CALLBACKS,
  callback: NO_CALLBACKS,
  webhook: NO_CALLBACKS,
  text: NO_TTS,
  script: NO_TTS,
  voice: NO_TTS,
  voiceId: NO_TTS,
  audio: NO_UPLOADS,
  audioBase64: NO_UPLOADS,
  file: NO_UPLOADS,
  outputUrl: "output is kept by the service for the retention period only; download it from videoUrl",
  retention: "the retention period is set by the service",
};

const CreateVideoResponse = z
  .object({
    jobId: Uuid,
    status: z.enum(VIDEO_JOB_STATUSES).meta({ description: "queued for a new job; the current status for a retry" }),
    createdAt: Timestamp.meta({ description: "Original acceptance time, also on a retry" }),
  })
  .meta({ id: "CreateVideoResponse" });

const route = createRoute({
  method: "post",
  path: "/videos",
  operationId: "createVideo",
  tags: ["Videos"],
  summary: "Accept a video job (render an Avatar speaking an audio file)",
  description:
    "Returns at once; media work is asynchronous. With a requestId, a retry with the same normalized input returns the existing job (current status, original createdAt) without counting again; different input gives 409. An omitted setting equals its explicit default; colour case does not matter.",
  security: APP_AUTH,
  middleware: [
    appAuth,
    requireOpenApiAccess,
    requireVideoAccess,
    requireVideoCreation,
    readRateLimitHeaders("video", { fromHandler: true }),
    limitBody,
    jsonInput({ unsupported: VIDEO_UNSUPPORTED_FIELDS }),
  ] as const,
  request: { body: jsonBody(CreateVideoRequest, { unsupported: VIDEO_UNSUPPORTED_FIELDS }) },
  responses: {
    200: okJson("New job, or the existing job for a retry", CreateVideoResponse, { readLimited: true }),
    ...errors(400, 401, 403, 409, 429, 500, 501, 503),
  },
});

/** POST /v1/open/videos: the shared creation path (jobs/create-video-job.ts), also used by the console. */
export const createVideoRoute = openApiApp().openapi(route, async (c) => {
  const body = c.req.valid("json");
  checkSourceAddress(c.env, "audioUrl", body.audioUrl);
  checkSourceAddress(c.env, "backgroundUrl", body.backgroundUrl);
  const { account, appId } = c.get("caller");
  const answer = await createVideoJob(
    c.env,
    { account, creator: { appId } },
    normalizeVideoInput(body),
    body.requestId ?? null,
    (reads) => c.set("readStatus", reads),
  );
  return c.json(answer, 200);
});
