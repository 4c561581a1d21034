import { errors, jwtVerify } from "jose";
import { fromBase64Url } from "../crypto/base64url";
import { REGIONS, SESSION_TOKEN_ISSUER, type SessionClaims } from "./claims";
import { publicKeyFrom } from "./keys";

/**
 * Offline verification for motion services with `jose` (WebCrypto underneath: runs in Workers and Node ≥ 22).
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

function reasonOf(err: unknown): SessionTokenError {
  if (err instanceof errors.JWTExpired) return new SessionTokenError("expired", "The token has expired");
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new SessionTokenError("unsupported_algorithm", "Only EdDSA tokens are accepted");
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return new SessionTokenError("bad_signature", "The token signature does not verify with this key");
  }
  if (err instanceof errors.JWTClaimValidationFailed)
    return new SessionTokenError("invalid_claims", "The token claims are not those of an avatar-video session token");
  return new SessionTokenError("malformed", "The token is not a well-formed compact JWS");
}

const claimsOk = (c: Partial<SessionClaims>) =>
  typeof c.sub === "string" &&
  typeof c.acct === "string" &&
  REGIONS.includes(c.region as (typeof REGIONS)[number]) &&
  (c.mv === undefined || typeof c.mv === "string") &&
  Number.isSafeInteger(c.iat) &&
  Number.isSafeInteger(c.exp) &&
  typeof c.jti === "string";

export async function verifySessionToken(
  token: string,
  publicKeySpkiBase64: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<SessionClaims> {
  const parts = typeof token === "string" ? token.split(".") : [];
  // Canonical base64url only (jose tolerates spare bits in the last character): one token, one spelling.
  if (parts.length !== 3 || parts.some((p) => fromBase64Url(p) === null)) {
    throw new SessionTokenError("malformed", "A session token has three dot-separated base64url parts");
  }
  // The header is checked here too, before jose: its synchronous refusals would otherwise surface as
  // (caught, but reported) unhandled rejections in workerd.
  let header: { alg?: unknown; crit?: unknown; b64?: unknown } | null = null;
  try {
    header = JSON.parse(new TextDecoder().decode(fromBase64Url(parts[0]!)!));
  } catch {
    throw new SessionTokenError("malformed", "The token header is not base64url JSON");
  }
  if (typeof header !== "object" || header === null)
    throw new SessionTokenError("malformed", "The token header is not a JSON object");
  if (header.alg !== "EdDSA" || header.crit !== undefined || header.b64 !== undefined) {
    throw new SessionTokenError("unsupported_algorithm", "Only EdDSA tokens are accepted");
  }
  let payload: Partial<SessionClaims>;
  try {
    ({ payload } = await jwtVerify<Partial<SessionClaims>>(token, await publicKeyFrom(publicKeySpkiBase64), {
      algorithms: ["EdDSA"], // fixed on our side: no "none", no HMAC key confusion
      issuer: SESSION_TOKEN_ISSUER,
      requiredClaims: ["sub", "iat", "exp", "jti"],
      currentDate: new Date(nowSeconds * 1000),
      clockTolerance: 0,
    }));
  } catch (err) {
    throw reasonOf(err);
  }
  if (!claimsOk(payload))
    throw new SessionTokenError("invalid_claims", "The token claims are not those of an avatar-video session token");
  return payload as SessionClaims;
}
