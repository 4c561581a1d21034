import type { Env } from "../env";
import type { Avatar, VideoJob } from "../db/schema";
import { apiError } from "../http/errors";
import { sign, signSync, verify } from "../crypto/hmac";
import { avatarKeys } from "./keys";
import { presignGet, s3PresignConfigured } from "./s3-presign";
import { logEvent } from "../logging/log-event";

/** Current link lifetime (spec: 15 minutes, capped by job.expiresAt). */
export const VIDEO_LINK_TTL_MS = 15 * 60 * 1000;

// Signed messages. Avatar media links (cover, background) carry a long-lived signature bound to the object
// key (hence to the Avatar id) with no expiry: the URL is a stable capability, like an unguessable address.
// Video links carry method + key + account + expiry and stop working after it.
const avatarMediaMessage = (key: string) => `media-v1\nGET\n${key}`;
const videoMessage = (key: string, accountId: string, expSec: number) =>
  `video-v1\nGET\n${key}\n${accountId}\n${expSec}`;

const unavailable = () =>
  apiError(
    "service_unavailable",
    "The download link could not be produced right now; the job is unchanged. Retry the request.",
  );

/** A header-free, long-lived address of one of an Avatar's images (`GET /v1/media/avatars/{id}/{file}?sig=…`). */
export function avatarMediaUrl(env: Pick<Env, "SIGNING_SECRET">, baseUrl: string, key: string): string {
  const sig = signSync(env.SIGNING_SECRET, avatarMediaMessage(key));
  return `${baseUrl}/v1/media/${key.split("/").map(encodeURIComponent).join("/")}?sig=${sig}`;
}

/** Absolute, header-free cover address of an Avatar (`GET /v1/media/avatars/{id}/cover.jpg?sig=…`). */
export function avatarCoverUrl(
  env: Pick<Env, "SIGNING_SECRET">,
  baseUrl: string,
  avatar: Pick<Avatar, "id" | "coverKey">,
): string {
  return avatarMediaUrl(env, baseUrl, avatar.coverKey || avatarKeys(avatar.id).cover);
}

/** The Avatar's background image address, or undefined when it has none (the field is then omitted). */
export function avatarBackgroundUrl(
  env: Pick<Env, "SIGNING_SECRET">,
  baseUrl: string,
  avatar: Pick<Avatar, "id" | "backgroundKey">,
): string | undefined {
  return avatar.backgroundKey ? avatarMediaUrl(env, baseUrl, avatar.backgroundKey) : undefined;
}

export function verifyAvatarMediaSignature(env: Pick<Env, "SIGNING_SECRET">, key: string, sig: string | undefined) {
  return verify(env.SIGNING_SECRET, avatarMediaMessage(key), sig);
}

/** A download link can only be offered for succeeded output that is still retained. */
export function isOutputAvailable(
  job: Pick<VideoJob, "status" | "expiresAt" | "outputKey">,
  now: number | Date,
): boolean {
  return job.status === "succeeded" && !!job.outputKey && job.expiresAt.getTime() > +now;
}

/**
 * Fresh download link: 15 minutes, capped by job.expiresAt (never extends retention). Callers offer it only
 * when `isOutputAvailable`; anything that prevents a working link (output missing from R2, signing error,
 * retention already over) throws 503 service_unavailable and leaves the job as it is. `key`: another output
 * of the job (its WebM with alpha), under the same rules; default the MP4.
 */
export async function videoDownloadLink(
  env: Env,
  baseUrl: string,
  job: VideoJob,
  now: number | Date = Date.now(),
  key: string | null = job.outputKey,
): Promise<{ url: string; expiresAt: Date }> {
  const nowMs = +now;
  const expSec = Math.floor(Math.min(nowMs + VIDEO_LINK_TTL_MS, job.expiresAt.getTime()) / 1000);
  if (!isOutputAvailable(job, nowMs) || !key || expSec <= Math.floor(nowMs / 1000)) throw unavailable();
  try {
    const head = await env.MEDIA.head(key);
    if (!head) throw new Error(`output ${key} missing from R2`);
    const url = s3PresignConfigured(env)
      ? await presignGet(env, key, nowMs, expSec)
      : `${baseUrl}/v1/media/${key}?exp=${expSec}&sig=${await sign(env.SIGNING_SECRET, videoMessage(key, job.accountId, expSec))}`;
    return { url, expiresAt: new Date(expSec * 1000) };
  } catch (err) {
    logEvent("video_link_failed", { jobId: job.id, error: err }, "error");
    throw unavailable();
  }
}

export function verifyVideoLinkSignature(
  env: Pick<Env, "SIGNING_SECRET">,
  key: string,
  accountId: string,
  expSec: number,
  sig: string | undefined,
) {
  return verify(env.SIGNING_SECRET, videoMessage(key, accountId, expSec), sig);
}
