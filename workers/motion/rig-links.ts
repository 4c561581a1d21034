import type { Env } from "../platform/env";
import { checkLink, type LinkQuery, signedLinkQuery } from "../platform/storage/links";

/**
 * Signed links to an Avatar's rig, portrait and matte for live clients (GET /v1/motion/avatars/{id}/{rig.json|
 * portrait.png|matte.png}?acct=&exp=&sig=). They name the account the connection belongs to and expire with
 * the link lifetime below; the purpose label keeps them from being valid for anything else.
 */
export const RIG_LINK_TTL_SECONDS = 60 * 60;
export const RIG_FILES = ["rig.json", "portrait.png", "matte.png"] as const;
export type RigFile = (typeof RIG_FILES)[number];
type LinkEnv = Pick<Env, "SIGNING_SECRET" | "LINK_SIGNING_KEYS">;

const message = (avatarId: string, file: RigFile, accountId: string, exp: number) =>
  `motion-rig-v2\nGET\n${avatarId}\n${file}\n${accountId}\n${exp}`;

export function signedRigUrl(
  env: LinkEnv,
  baseUrl: string,
  avatarId: string,
  file: RigFile,
  accountId: string,
  nowMs = Date.now(),
): string {
  const exp = Math.floor(nowMs / 1000) + RIG_LINK_TTL_SECONDS;
  const query = signedLinkQuery(env, accountId, exp, message(avatarId, file, accountId, exp));
  return `${baseUrl}/v1/motion/avatars/${avatarId}/${file}?${query}`;
}

/** Signature and expiry, before any read. */
export const checkRigLink = (env: LinkEnv, avatarId: string, file: RigFile, q: LinkQuery, nowMs = Date.now()) =>
  checkLink(env, q, (acct, exp) => message(avatarId, file, acct, exp), nowMs);
