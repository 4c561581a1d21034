/** base64url without padding, for signatures and opaque tokens. */
export function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Strict decoder: anything outside the alphabet → null (never throws). Only the canonical spelling is
 * accepted: the last character also carries unused bits, and without this check two different strings
 * would decode to the same signature.
 */
export function fromBase64Url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return toBase64Url(bytes) === s ? bytes : null;
  } catch {
    return null;
  }
}

/** 256 random bits as base64url (43 characters): session ids, invite tokens. */
export const randomToken = () => toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
