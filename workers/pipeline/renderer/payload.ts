import { eq } from "drizzle-orm";
import { avatars, type AvatarJob, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { backgroundBaseUrl } from "../../platform/http/base-url";
import { avatarIdForJob } from "../jobs/avatar-id";
import { db } from "../jobs/store";
import { jobToken } from "../jobs/tokens";
import { alphaVideoKey, avatarKeys, videoAudioTrackKey, videoKey, videoPartKey } from "../../platform/storage/keys";
import { runId } from "../queue/messages";
import { splitRule } from "./split";

// The dispatch body of POST {renderer}/jobs (docs/architecture.md, "Renderer contract") is defined once,
// by the renderer that validates it; the Worker only builds it.
import type {
  AvatarDispatch as AvatarPayload,
  Dispatch as RendererPayload,
  VideoDispatch as VideoPayload,
} from "@avatar-video/contract";

export type { AvatarPayload, RendererPayload, VideoPayload };

/** Which run a dispatch addresses: the job's own, or a split render's (its segment index, the join's). */
interface RunAddress {
  jobId: string;
  attempt: number;
  segment?: number;
}

/** The Worker's object route for one key, addressed to this run (the Bearer token proves it). */
export const objectUrl = (base: string, key: string, run: RunAddress) =>
  `${base}/internal/objects/${key}?job=${run.jobId}&attempt=${run.attempt}` +
  (run.segment === undefined ? "" : `&segment=${run.segment}`);

export const callbackUrl = (base: string, run: RunAddress) =>
  run.segment === undefined
    ? `${base}/internal/jobs/${run.jobId}/events?attempt=${run.attempt}`
    : `${base}/internal/jobs/${run.jobId}/segments/${run.segment}/events?attempt=${run.attempt}`;

async function base(env: Env, kind: "avatar" | "video", run: RunAddress) {
  const origin = backgroundBaseUrl(env);
  return {
    origin,
    url: (key: string) => objectUrl(origin, key, run),
    fields: {
      jobId: run.jobId,
      attempt: run.attempt,
      callbackUrl: callbackUrl(origin, run),
      token: await jobToken(env, kind, runId(run), run.attempt),
    },
  };
}

export async function avatarPayload(env: Env, job: AvatarJob, attempt: number): Promise<AvatarPayload> {
  const { url, fields } = await base(env, "avatar", { jobId: job.id, attempt });
  const keys = avatarKeys(await avatarIdForJob(job.id));
  return {
    kind: "avatar",
    ...fields,
    imageUrl: job.imageUrl,
    outputs: { portrait: url(keys.portrait), rig: url(keys.rig), cover: url(keys.cover), matte: url(keys.matte) },
  };
}

/**
 * Null when the Avatar row is gone (the job fails avatar_forbidden). A whole render's run carries the split
 * rule when renders may be split (split.ts), so a long one comes back as a `split` event.
 */
export async function videoPayload(env: Env, job: VideoJob, attempt: number): Promise<VideoPayload | null> {
  const payload = await videoRunPayload(env, job, { jobId: job.id, attempt });
  const split = splitRule(env, job);
  return payload && (split ? { ...payload, split } : payload);
}

/** Segment `index` of a split render: its frames to their part, segment 0 also the audio track. */
export async function segmentPayload(
  env: Env,
  job: VideoJob,
  index: number,
  count: number,
  attempt: number,
): Promise<VideoPayload | null> {
  const run = { jobId: job.id, attempt, segment: index };
  const payload = await videoRunPayload(env, job, run);
  const url = (key: string) => objectUrl(backgroundBaseUrl(env), key, run);
  const video = url(videoPartKey(job.id, index));
  const audioTrack = index === 0 ? { audioTrack: url(videoAudioTrackKey(job.id)) } : {};
  return payload && { ...payload, segment: { index, count }, outputs: { ...payload.outputs, video, ...audioTrack } };
}

/** The join of a split render's `count` parts (run index `count`), checked to hold `frames` frames. */
export async function joinPayload(
  env: Env,
  job: VideoJob,
  count: number,
  frames: number,
  attempt: number,
): Promise<VideoPayload | null> {
  const run = { jobId: job.id, attempt, segment: count };
  const payload = await videoRunPayload(env, job, run);
  const url = (key: string) => objectUrl(backgroundBaseUrl(env), key, run);
  const parts = Array.from({ length: count }, (_, k) => url(videoPartKey(job.id, k)));
  return payload && { ...payload, join: { parts, audioTrack: url(videoAudioTrackKey(job.id)), frames } };
}

async function videoRunPayload(env: Env, job: VideoJob, run: RunAddress): Promise<VideoPayload | null> {
  const avatar = await db(env).select().from(avatars).where(eq(avatars.id, job.avatarId)).get();
  if (!avatar) return null;
  const { url, fields } = await base(env, "video", run);
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
