import type { Env } from "../env";
import type { Avatar, VideoJob } from "../db/schema";
import { apiError } from "../http/errors";
import { isIssuedUuid } from "../http/uuid";
import { signLink, verifyLink } from "./link-keys";
import { avatarKeys } from "./keys";
import { presignGet, s3PresignConfigured } from "./s3-presign";
import { logEvent } from "../logging/log-event";

type LinkEnv = Pick<Env, "SIGNING_SECRET" | "LINK_SIGNING_KEYS">;

/** Current link lifetime (spec: 15 minutes, capped by job.expiresAt). */
export const VIDEO_LINK_TTL_MS = 15 * 60 * 1000;

/**
 * Avatar media links (cover, background, the console's portrait and matte previews) name the account they
 * were issued to and expire (docs/api-decisions.md, "Avatar media links"). An API read signs them for at
 * least 24 h (rounded up to the hour, so a link stays the same for an hour and caches well); a console
 * page for at most 1 h (rounded down to 5 minutes).
 */
export const AVATAR_LINK_API_MIN_SECONDS = 24 * 60 * 60;
export const AVATAR_LINK_PREVIEW_MAX_SECONDS = 60 * 60;
export type AvatarLinkUse = "api" | "preview";
/** Who a link is for: the account reading, and where it is shown. */
export interface AvatarLinkFor {
  accountId: string;
  use: AvatarLinkUse;
  now?: number;
}

export function avatarLinkExpiry(use: AvatarLinkUse, nowMs: number): number {
  const nowSec = Math.floor(nowMs / 1000);
  return use === "api"
    ? Math.ceil((nowSec + AVATAR_LINK_API_MIN_SECONDS) / 3600) * 3600
    : Math.floor((nowSec + AVATAR_LINK_PREVIEW_MAX_SECONDS) / 300) * 300;
}

// Signed messages: a purpose label, method, object key, account and expiry (epoch seconds). Signatures carry
// the id of the key that made them (link-keys.ts).
const avatarMediaMessage = (key: string, accountId: string, expSec: number) =>
  `media-v2\nGET\n${key}\n${accountId}\n${expSec}`;
const videoMessage = (key: string, accountId: string, expSec: number) =>
  `video-v1\nGET\n${key}\n${accountId}\n${expSec}`;
const linkQuery = (accountId: string, expSec: number, sig: string) => `acct=${accountId}&exp=${expSec}&sig=${sig}`;

/** `acct=…&exp=…&sig=…` for a link whose signed message names the account and the expiry. */
export const signedLinkQuery = (env: LinkEnv, accountId: string, expSec: number, message: string) =>
  linkQuery(accountId, expSec, signLink(env, message));

const unavailable = () =>
  apiError(
    "service_unavailable",
    "The download link could not be produced right now; the job is unchanged. Retry the request.",
  );

/** A header-free address of one of an Avatar's images (`GET /v1/media/avatars/{id}/{file}?acct&exp&sig`). */
export function avatarMediaUrl(env: LinkEnv, baseUrl: string, key: string, to: AvatarLinkFor): string {
  const exp = avatarLinkExpiry(to.use, to.now ?? Date.now());
  const sig = signLink(env, avatarMediaMessage(key, to.accountId, exp));
  return `${baseUrl}/v1/media/${key.split("/").map(encodeURIComponent).join("/")}?${linkQuery(to.accountId, exp, sig)}`;
}

/** Absolute, header-free cover address of an Avatar. */
export function avatarCoverUrl(
  env: LinkEnv,
  baseUrl: string,
  avatar: Pick<Avatar, "id" | "coverKey">,
  to: AvatarLinkFor,
): string {
  return avatarMediaUrl(env, baseUrl, avatar.coverKey || avatarKeys(avatar.id).cover, to);
}

/** The Avatar's background image address, or undefined when it has none (the field is then omitted). */
export function avatarBackgroundUrl(
  env: LinkEnv,
  baseUrl: string,
  avatar: Pick<Avatar, "id" | "backgroundKey">,
  to: AvatarLinkFor,
): string | undefined {
  return avatar.backgroundKey ? avatarMediaUrl(env, baseUrl, avatar.backgroundKey, to) : undefined;
}

/** The query of a signed link as it arrived. */
export interface LinkQuery {
  acct?: string;
  exp?: string;
  sig?: string;
}
export type LinkCheck = { ok: true; accountId: string; remainingSeconds: number } | { ok: false; expired: boolean };

/** Signature, then expiry, of any link signed over (account, expiry): no storage or D1 read happens before this. */
export async function checkLink(
  env: LinkEnv,
  q: LinkQuery,
  message: (accountId: string, expSec: number) => string,
  nowMs: number,
): Promise<LinkCheck> {
  if (!q.acct || !isIssuedUuid(q.acct) || !q.exp || !/^\d{1,12}$/.test(q.exp)) return { ok: false, expired: false };
  if (!(await verifyLink(env, message(q.acct, Number(q.exp)), q.sig))) return { ok: false, expired: false };
  const remainingSeconds = Number(q.exp) - Math.floor(nowMs / 1000);
  return remainingSeconds > 0 ? { ok: true, accountId: q.acct, remainingSeconds } : { ok: false, expired: true };
}

export const checkAvatarMediaLink = (env: LinkEnv, key: string, q: LinkQuery, nowMs = Date.now()) =>
  checkLink(env, q, (acct, exp) => avatarMediaMessage(key, acct, exp), nowMs);

export const checkVideoLink = (env: LinkEnv, key: string, q: LinkQuery, nowMs = Date.now()) =>
  checkLink(env, q, (acct, exp) => videoMessage(key, acct, exp), nowMs);

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
      : `${baseUrl}/v1/media/${key}?${linkQuery(job.accountId, expSec, signLink(env, videoMessage(key, job.accountId, expSec)))}`;
    return { url, expiresAt: new Date(expSec * 1000) };
  } catch (err) {
    logEvent("video_link_failed", { jobId: job.id, error: err }, "error");
    throw unavailable();
  }
}
