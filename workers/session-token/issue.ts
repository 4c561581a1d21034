import { REGIONS, SESSION_TOKEN_ISSUER, type Region, type SessionClaims } from "./claims";
import { importPrivateKey, signCompact } from "./jws";

const keys = new Map<string, Promise<CryptoKey>>();

function privateKey(pkcs8Base64: string) {
  let key = keys.get(pkcs8Base64);
  if (!key) {
    key = importPrivateKey(pkcs8Base64);
    key.catch(() => keys.delete(pkcs8Base64)); // a bad secret is retried after it is fixed
    keys.set(pkcs8Base64, key);
  }
  return key;
}

export function regionOf(value: string | undefined): Region {
  const region = (value || "us-west") as Region;
  if (!REGIONS.includes(region)) throw new Error(`REGION must be one of ${REGIONS.join(", ")}`);
  return region;
}

export interface IssueInput {
  appId: string;
  accountId: string;
  region: Region;
  expireAt: number;
  modelVersion?: string;
  now: number;
}

/** A compact JWS (JWT) signed with Ed25519: header {alg: "EdDSA", typ: "JWT"}. */
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
  return signCompact({ alg: "EdDSA", typ: "JWT" }, claims, await privateKey(privateKeyPkcs8Base64));
}
