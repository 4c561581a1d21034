/**
 * Credentials as they arrive in a header. HTTP strips only spaces and horizontal tabs around a field value
 * (RFC 9110 §5.5); every other character — VT, FF, NBSP, NEL, U+2028, U+3000, a zero-width space — is part of
 * the value, so it must make the comparison fail. Never `.trim()` a secret: that strips all of Unicode's
 * whitespace and would accept a key the caller did not send.
 */

/** The header value without surrounding SP/HTAB; undefined when absent or empty. */
export function credentialField(raw: string | null | undefined): string | undefined {
  const value = (raw ?? "").replace(/^[ \t]+|[ \t]+$/g, "");
  return value === "" ? undefined : value;
}

/** `Bearer <token>` (scheme case-insensitive, SP/HTAB after it): the token exactly as sent, else undefined. */
export function bearerCredential(raw: string | null | undefined): string | undefined {
  const m = /^Bearer[ \t]+([\s\S]+)$/i.exec(credentialField(raw) ?? "");
  return m ? m[1] : undefined;
}
