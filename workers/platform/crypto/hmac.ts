import { createHmac } from "node:crypto";
import { fromBase64Url, toBase64Url } from "./base64url";

// HMAC-SHA256 under SIGNING_SECRET. Every message starts with a purpose label so a signature minted for
// one use (cover link, video link, renderer token) is never valid for another.

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keyCache.set(secret, key);
  }
  return key;
}

/** Synchronous signature (node:crypto), for links that must be built inside synchronous serializers. */
export function signSync(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("base64url");
}

export async function sign(secret: string, message: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message));
  return toBase64Url(new Uint8Array(mac));
}

/** Constant-time check (crypto.subtle.verify) of a base64url HMAC-SHA256 signature. */
export async function verify(secret: string, message: string, signature: string | undefined | null): Promise<boolean> {
  if (!signature || !secret) return false;
  const bytes = fromBase64Url(signature);
  if (bytes?.byteLength !== 32) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(secret), bytes, encoder.encode(message));
}
