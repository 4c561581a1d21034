/** Ed25519 keys of session tokens, from the base64 DER secrets (PKCS#8 private, SPKI public), imported once. */

const ED25519 = { name: "Ed25519" } as const;
const cache = new Map<string, Promise<CryptoKey>>();

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ""));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

function cached(kind: "pkcs8" | "spki", b64: string): Promise<CryptoKey> {
  const id = `${kind}:${b64}`;
  let key = cache.get(id);
  if (!key) {
    key = crypto.subtle.importKey(kind, base64ToBytes(b64), ED25519, false, [kind === "pkcs8" ? "sign" : "verify"]);
    key.catch(() => cache.delete(id)); // a bad secret is retried after it is fixed
    cache.set(id, key);
  }
  return key;
}

export const privateKeyFrom = (pkcs8Base64: string) => cached("pkcs8", pkcs8Base64);
export const publicKeyFrom = (spkiBase64: string) => cached("spki", spkiBase64);
