import type { Env } from "../env";
import { signSync, verify } from "../crypto/hmac";

/**
 * The keys that sign media links (docs/security.md, "Rotating keys"). `LINK_SIGNING_KEYS` lists
 * `id:secret` pairs separated by commas: the first signs new links, every listed one still verifies, so a new
 * key is put first while the old one stays listed until the longest link it signed has expired (25 h), then
 * removed. Unset: one key, id `s0`, the SIGNING_SECRET. A signature is `<key id>.<HMAC-SHA256 base64url>`.
 */
type KeyEnv = Pick<Env, "SIGNING_SECRET" | "LINK_SIGNING_KEYS">;
interface LinkKey {
  id: string;
  secret: string;
}

const KEY_ID = /^[A-Za-z0-9]{1,16}$/;
const parsed = new Map<string, LinkKey[]>();

export function linkKeys(env: KeyEnv): LinkKey[] {
  const listed = env.LINK_SIGNING_KEYS?.trim();
  if (!listed) return [{ id: "s0", secret: env.SIGNING_SECRET }];
  let keys = parsed.get(listed);
  if (!keys) {
    keys = listed.split(",").map((pair) => {
      const at = pair.indexOf(":");
      const key = { id: pair.slice(0, at).trim(), secret: pair.slice(at + 1).trim() };
      if (at < 0 || !KEY_ID.test(key.id) || key.secret.length < 32)
        throw new Error(
          "LINK_SIGNING_KEYS: each entry is <id>:<secret>, id 1-16 letters or digits, secret ≥ 32 characters",
        );
      return key;
    });
    parsed.set(listed, keys);
  }
  return keys;
}

/** Signs with the current (first) key. */
export function signLink(env: KeyEnv, message: string): string {
  const [key] = linkKeys(env);
  if (!key?.secret) throw new Error("no link signing key");
  return `${key.id}.${signSync(key.secret, message)}`;
}

/** True when `signature` is a listed key's signature of `message`; an unknown or retired key id is false. */
export async function verifyLink(env: KeyEnv, message: string, signature: string | undefined): Promise<boolean> {
  const dot = signature?.indexOf(".") ?? -1;
  if (!signature || dot < 1) return false;
  const key = linkKeys(env).find((k) => k.id === signature.slice(0, dot));
  return !!key && verify(key.secret, message, signature.slice(dot + 1));
}
