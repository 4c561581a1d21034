import type { Env } from "../platform/env";
import { sign, verify } from "../platform/crypto/hmac";

/**
 * Signed links to an Avatar's rig, portrait and matte for live clients (GET /v1/motion/avatars/{id}/{rig.json|
 * portrait.png|matte.png}?exp=&sig=). They expire with the link lifetime below; the purpose label keeps them
 * from being valid for anything else.
 */
export const RIG_LINK_TTL_SECONDS = 60 * 60;
export const RIG_FILES = ["rig.json", "portrait.png", "matte.png"] as const;
export type RigFile = (typeof RIG_FILES)[number];

const message = (avatarId: string, file: RigFile, exp: number) => `motion-rig-v1\nGET\n${avatarId}\n${file}\n${exp}`;

export async function signedRigUrl(
  env: Pick<Env, "SIGNING_SECRET">,
  baseUrl: string,
  avatarId: string,
  file: RigFile,
  nowMs = Date.now(),
): Promise<string> {
  const exp = Math.floor(nowMs / 1000) + RIG_LINK_TTL_SECONDS;
  return `${baseUrl}/v1/motion/avatars/${avatarId}/${file}?exp=${exp}&sig=${await sign(env.SIGNING_SECRET, message(avatarId, file, exp))}`;
}

export function verifyRigLink(
  env: Pick<Env, "SIGNING_SECRET">,
  avatarId: string,
  file: RigFile,
  exp: number,
  sig: string | undefined,
) {
  return verify(env.SIGNING_SECRET, message(avatarId, file, exp), sig);
}
