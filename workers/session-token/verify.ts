import { REGIONS, SESSION_TOKEN_ISSUER, type SessionClaims } from "./claims";
import { decodeB64urlJson, ED25519, encoder, fromBase64Url, importPublicKey } from "./jws";

/**
 * Offline verification for motion services (WebCrypto only: runs in Workers and Node ≥ 22).
 * Rejects anything but an EdDSA compact JWS with a valid signature by the given key, our issuer,
 * well-formed claims, and `nowSeconds < exp`. Connections already established are not affected by
 * expiry: call this when a new connection opens.
 */
export class SessionTokenError extends Error {
  constructor(
    readonly reason: "malformed" | "unsupported_algorithm" | "bad_signature" | "invalid_claims" | "expired",
    message: string,
  ) {
    super(message);
    this.name = "SessionTokenError";
  }
}

export async function verifySessionToken(
  token: string,
  publicKeySpkiBase64: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<SessionClaims> {
  const parts = typeof token === "string" ? token.split(".") : [];
  if (parts.length !== 3) throw new SessionTokenError("malformed", "A session token has three dot-separated parts");
  const [headerPart, payloadPart, sigPart] = parts as [string, string, string];
  let header: { alg?: unknown; crit?: unknown };
  try {
    header = decodeB64urlJson(headerPart) as typeof header;
  } catch {
    throw new SessionTokenError("malformed", "The token header is not base64url JSON");
  }
  // The algorithm is fixed on our side; the header may only confirm it (no "none", no HMAC confusion).
  if (header?.alg !== "EdDSA" || header.crit !== undefined) throw new SessionTokenError("unsupported_algorithm", "Only EdDSA tokens are accepted");
  const signature = fromBase64Url(sigPart);
  if (!signature || signature.length !== 64) throw new SessionTokenError("malformed", "The token signature is not a 64-byte base64url value");
  const key = await importPublicKey(publicKeySpkiBase64);
  const ok = await crypto.subtle.verify(ED25519, key, signature, encoder.encode(`${headerPart}.${payloadPart}`));
  if (!ok) throw new SessionTokenError("bad_signature", "The token signature does not verify with this key");
  let claims: SessionClaims;
  try {
    claims = decodeB64urlJson(payloadPart) as SessionClaims;
  } catch {
    throw new SessionTokenError("malformed", "The token payload is not base64url JSON");
  }
  if (
    claims?.iss !== SESSION_TOKEN_ISSUER ||
    typeof claims.sub !== "string" ||
    typeof claims.acct !== "string" ||
    !REGIONS.includes(claims.region) ||
    (claims.mv !== undefined && typeof claims.mv !== "string") ||
    !Number.isSafeInteger(claims.iat) ||
    !Number.isSafeInteger(claims.exp) ||
    typeof claims.jti !== "string"
  ) {
    throw new SessionTokenError("invalid_claims", "The token claims are not those of an avatar-video session token");
  }
  if (nowSeconds >= claims.exp) throw new SessionTokenError("expired", `The token expired at ${claims.exp}`);
  return claims;
}
