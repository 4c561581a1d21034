/**
 * The renderer's Bearer check (RENDERER_TOKEN), exact like the Worker's (workers/platform/auth/credentials.ts): only
 * SP/HTAB around the header value and after the scheme are ignored (RFC 9110 §5.5); any other character —
 * VT, NBSP, a zero-width space — is part of the token and makes the comparison fail. Never `.trim()` a secret.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** Constant time: both sides are hashed first, so the comparison does not depend on length either. */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  const m = /^Bearer[ \t]+([\s\S]+)$/i.exec((header ?? "").replace(/^[ \t]+|[ \t]+$/g, ""));
  const given = createHash("sha256")
    .update(m ? m[1] : "\0")
    .digest();
  const want = createHash("sha256").update(token).digest();
  return timingSafeEqual(given, want) && !!m;
}
