import { SignJWT } from "jose";
import { SESSION_TOKEN_ISSUER, type Region, type SessionClaims } from "./claims";
import { privateKeyFrom } from "./keys";

export interface IssueInput {
  appId: string;
  accountId: string;
  region: Region;
  expireAt: number;
  modelVersion?: string;
  now: number;
}

/** A compact JWS (JWT) signed with Ed25519 by `jose`: header {alg: "EdDSA", typ: "JWT"} (docs/session-tokens.md). */
export async function issueSessionToken(privateKeyPkcs8Base64: string, input: IssueInput): Promise<string> {
  const claims: SessionClaims = {
    iss: SESSION_TOKEN_ISSUER,
    sub: input.appId,
    acct: input.accountId,
    region: input.region,
    ...(input.modelVersion !== undefined ? { mv: input.modelVersion } : {}),
    iat: Math.floor(input.now / 1000),
    exp: input.expireAt,
    jti: crypto.randomUUID(),
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .sign(await privateKeyFrom(privateKeyPkcs8Base64));
}
