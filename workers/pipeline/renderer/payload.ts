import { eq } from "drizzle-orm";
import { avatars, type AvatarJob, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { backgroundBaseUrl } from "../../platform/http/base-url";
import { avatarIdForJob } from "../jobs/avatar-id";
import { db } from "../jobs/store";
import { jobToken } from "../jobs/tokens";
import { alphaVideoKey, avatarKeys, videoKey } from "../../platform/storage/keys";

// The dispatch body of POST {renderer}/jobs (docs/architecture.md, "Renderer contract") is defined once,
// by the renderer that validates it; the Worker only builds it.
import type {
  AvatarDispatch as AvatarPayload,
  Dispatch as RendererPayload,
  VideoDispatch as VideoPayload,
} from "@avatar-video/contract";

export type { AvatarPayload, RendererPayload, VideoPayload };

/** The Worker's object route for one key, addressed to this job and attempt (the Bearer token proves both). */
export const objectUrl = (base: string, key: string, jobId: string, attempt: number) =>
  `${base}/internal/objects/${key}?job=${jobId}&attempt=${attempt}`;

export const callbackUrl = (base: string, jobId: string, attempt: number) =>
  `${base}/internal/jobs/${jobId}/events?attempt=${attempt}`;

async function base(env: Env, kind: "avatar" | "video", jobId: string, attempt: number) {
  const origin = backgroundBaseUrl(env);
  return {
    origin,
    fields: {
      jobId,
      attempt,
      callbackUrl: callbackUrl(origin, jobId, attempt),
      token: await jobToken(env, kind, jobId, attempt),
    },
  };
}

export async function avatarPayload(env: Env, job: AvatarJob, attempt: number): Promise<AvatarPayload> {
  const { origin, fields } = await base(env, "avatar", job.id, attempt);
  const keys = avatarKeys(await avatarIdForJob(job.id));
  const url = (key: string) => objectUrl(origin, key, job.id, attempt);
  return {
    kind: "avatar",
    ...fields,
    imageUrl: job.imageUrl,
    outputs: { portrait: url(keys.portrait), rig: url(keys.rig), cover: url(keys.cover), matte: url(keys.matte) },
  };
}

/** Null when the Avatar row is gone (the job then fails avatar_forbidden). */
export async function videoPayload(env: Env, job: VideoJob, attempt: number): Promise<VideoPayload | null> {
  const avatar = await db(env).select().from(avatars).where(eq(avatars.id, job.avatarId)).get();
  if (!avatar) return null;
  const { origin, fields } = await base(env, "video", job.id, attempt);
  const url = (key: string) => objectUrl(origin, key, job.id, attempt);
  // The matte is read (and, for an Avatar made before mattes, stored) at the same key.
  const matte = url(avatarKeys(avatar.id).matte);
  return {
    kind: "video",
    ...fields,
    avatar: {
      portrait: url(avatar.portraitKey),
      rig: url(avatar.rigKey),
      ...(avatar.backgroundKey ? { background: url(avatar.backgroundKey) } : {}),
      matte,
    },
    audioUrl: job.audioUrl,
    ...(job.backgroundUrl ? { backgroundUrl: job.backgroundUrl } : {}),
    settings: job.settings,
    outputs: {
      video: url(videoKey(job.id)),
      matte,
      ...(job.settings.alpha ? { alphaVideo: url(alphaVideoKey(job.id)) } : {}),
    },
  };
}
