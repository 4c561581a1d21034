import { fromBase64Url, toBase64Url } from "../crypto/base64url";

/** Compact JWS helpers (RFC 7515) for Ed25519 ("EdDSA", RFC 8037) with WebCrypto only: Workers and Node 22. */

export const ED25519 = { name: "Ed25519" } as const;

const encoder = new TextEncoder();

export const b64urlJson = (value: unknown) => toBase64Url(encoder.encode(JSON.stringify(value)));

export function decodeB64urlJson(part: string): unknown {
  const bytes = fromBase64Url(part);
  if (!bytes) throw new Error("not base64url");
  return JSON.parse(new TextDecoder().decode(bytes));
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ""));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

export const importPrivateKey = (pkcs8Base64: string) =>
  crypto.subtle.importKey("pkcs8", base64ToBytes(pkcs8Base64), ED25519, false, ["sign"]);

export const importPublicKey = (spkiBase64: string) =>
  crypto.subtle.importKey("spki", base64ToBytes(spkiBase64), ED25519, false, ["verify"]);

export async function signCompact(header: object, payload: object, key: CryptoKey): Promise<string> {
  const signingInput = `${b64urlJson(header)}.${b64urlJson(payload)}`;
  const sig = await crypto.subtle.sign(ED25519, key, encoder.encode(signingInput));
  return `${signingInput}.${toBase64Url(new Uint8Array(sig))}`;
}

export { encoder, fromBase64Url };
