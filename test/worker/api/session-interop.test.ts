import { env } from "cloudflare:test";
import { sign as honoSign, verify as honoVerify } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { issueSessionToken } from "../../../workers/platform/session-token/issue";
import { verifySessionToken } from "../../../workers/platform/session-token/verify";

// Our tokens are issued and verified with `jose`; a second, independent JWT implementation (hono/jwt)
// must read ours and write tokens ours accept: the format is standard EdDSA JWT, not a private dialect.
const nowS = () => Math.floor(Date.now() / 1000);
const pem = (label: string, b64: string) => `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----`;

describe("session tokens interoperate with hono/jwt", () => {
  it("a jose-issued token verifies with hono/jwt (EdDSA, SPKI key)", async () => {
    const exp = nowS() + 300;
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, {
      appId: "app-1",
      accountId: "acct-1",
      region: "us-west",
      expireAt: exp,
      modelVersion: "motion-2.1",
      now: Date.now(),
    });
    const claims = await honoVerify(token, pem("PUBLIC KEY", env.SESSION_TOKEN_PUBLIC_KEY), "EdDSA");
    expect(claims).toMatchObject({
      iss: "avatar-video",
      sub: "app-1",
      acct: "acct-1",
      region: "us-west",
      mv: "motion-2.1",
      exp,
    });
    // And hono/jwt refuses it under another algorithm.
    await expect(honoVerify(token, pem("PUBLIC KEY", env.SESSION_TOKEN_PUBLIC_KEY), "ES256")).rejects.toThrow();
  });

  it("a hono/jwt-signed token verifies with ours; a tampered one does not", async () => {
    const claims = {
      iss: "avatar-video",
      sub: "app-2",
      acct: "acct-2",
      region: "cn-beijing",
      iat: nowS(),
      exp: nowS() + 60,
      jti: crypto.randomUUID(),
    };
    const token = await honoSign(claims, pem("PRIVATE KEY", env.SESSION_TOKEN_PRIVATE_KEY), "EdDSA");
    expect(JSON.parse(atob(token.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/")))).toMatchObject({
      alg: "EdDSA",
      typ: "JWT",
    });
    await expect(verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY)).resolves.toMatchObject({
      acct: "acct-2",
      region: "cn-beijing",
    });
    const forged = await honoSign(
      { ...claims, iss: "someone-else" },
      pem("PRIVATE KEY", env.SESSION_TOKEN_PRIVATE_KEY),
      "EdDSA",
    );
    await expect(verifySessionToken(forged, env.SESSION_TOKEN_PUBLIC_KEY)).rejects.toMatchObject({
      reason: "invalid_claims",
    });
    const hmac = await honoSign(claims, env.SESSION_TOKEN_PUBLIC_KEY, "HS256"); // key confusion: the public key as an HMAC secret
    await expect(verifySessionToken(hmac, env.SESSION_TOKEN_PUBLIC_KEY)).rejects.toMatchObject({
      reason: "unsupported_algorithm",
    });
  });

  it("a non-canonical spelling of the signature is refused (one token, one spelling)", async () => {
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, {
      appId: "a",
      accountId: "b",
      region: "us-west",
      expireAt: nowS() + 60,
      now: Date.now(),
    });
    const last = token.at(-1)!;
    // 64 bytes → 86 characters: the last one carries 2 bits of data and 4 unused bits.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    await expect(verifySessionToken(token.slice(0, -1) + sibling, env.SESSION_TOKEN_PUBLIC_KEY)).rejects.toMatchObject({
      reason: "malformed",
    });
  });
});
