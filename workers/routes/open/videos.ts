import { Hono } from "hono";
import { requireOpenApiAccess, requireVideoAccess, requireVideoCreation } from "../../auth/access";
import { appAuth } from "../../auth/app-auth";
import type { AppEnv } from "../../env";
import { limitBody } from "../../http/body-limit";
import { validate } from "../../http/validation";
import { createVideoJob } from "../../jobs/create-video-job";
import { operations as ops, honoPath } from "../../openapi/contract";
import type { NormalizedVideoInput } from "../../retry/fingerprint";
import { normalizeVideoSettings } from "../../schemas/video-settings";
import { checkSourceAddress } from "./source-address";

const MOUNT = "/v1/open";

export const videoRoutes = new Hono<AppEnv>().post(
  honoPath(ops.createVideo, MOUNT),
  appAuth,
  requireOpenApiAccess,
  requireVideoAccess,
  requireVideoCreation,
  limitBody,
  validate("json", ops.createVideo.body, { unsupported: ops.createVideo.unsupported }),
  async (c) => {
    const body = c.req.valid("json");
    checkSourceAddress(c.env, "audioUrl", body.audioUrl);
    checkSourceAddress(c.env, "backgroundUrl", body.backgroundUrl);
    // Omitted settings ≡ explicit defaults, colour case ignored: the fingerprint sees normalized input only.
    const input: NormalizedVideoInput = {
      avatarId: body.avatarId,
      audioUrl: body.audioUrl,
      backgroundUrl: body.backgroundUrl ?? null,
      name: body.name ?? null,
      settings: normalizeVideoSettings(body.video),
    };
    // The shared creation path (jobs/create-video-job.ts), also used by the console.
    return c.json(await createVideoJob(c.env, c.get("caller"), input, body.requestId ?? null), 200);
  },
);
