import { toBase64Url } from "./base64url";
import { toHex } from "./hex";

const encoder = new TextEncoder();

/** SHA-256 of a UTF-8 string or of bytes as lowercase hex (how API keys are stored at rest). */
export async function sha256Hex(value: string | ArrayBuffer): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", typeof value === "string" ? encoder.encode(value) : value));
}

/**
 * Constant-time string comparison. Both sides are hashed first so the comparison runs on equal-length
 * buffers and its duration says nothing about the length or the common prefix of the secret.
 */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

/** Constant-time comparison of two lowercase hex digests of equal length (mismatched length: false). */
export function safeEqualHex(a: string, b: string): boolean {
  const ba = encoder.encode(a);
  const bb = encoder.encode(b);
  if (ba.byteLength !== bb.byteLength) return false;
  return crypto.subtle.timingSafeEqual(ba, bb);
}

/** A new API key: "avk_" + 32 random bytes in base64url (256 bits of entropy). */
export function newApiKey(): string {
  return `avk_${toBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
}
