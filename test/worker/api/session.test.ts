import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueSessionToken } from "../../../workers/platform/session-token/issue";
import { SessionTokenError, verifySessionToken } from "../../../workers/platform/session-token/verify";
import { createAccount, patchAccount, type TestAccount } from "../helpers/accounts";
import { expectError, json } from "../helpers/open-fixtures";

const nowS = () => Math.floor(Date.now() / 1000);
const issue = (body: unknown, headers: Record<string, string>) =>
  SELF.fetch("http://x/v1/console/session-tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64url = (s: string) => atob(s.replace(/-/g, "+").replace(/_/g, "/"));

async function otherPublicKey() {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const spki = (await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer;
  return btoa(String.fromCharCode(...new Uint8Array(spki)));
}

describe("POST /v1/console/session-tokens", () => {
  let a: TestAccount;
  beforeAll(async () => {
    a = await createAccount();
  });
  const key = () => ({ "X-API-Key": a.apiKey });

  it("issues a token with X-API-Key alone, carrying App, account, region, model version and expiry", async () => {
    const expireAt = nowS() + 600;
    const { sessionToken } = await json<{ sessionToken: string }>(
      await issue({ expireAt, modelVersion: "motion-2.1" }, key()),
    );
    const header = JSON.parse(unb64url(sessionToken.split(".")[0]!));
    expect(header).toEqual({ alg: "EdDSA", typ: "JWT" });
    const claims = await verifySessionToken(sessionToken, env.SESSION_TOKEN_PUBLIC_KEY);
    expect(claims).toMatchObject({
      iss: "avatar-video",
      sub: a.appId,
      acct: a.accountId,
      region: "us-west",
      mv: "motion-2.1",
      exp: expireAt,
    });
    expect(Math.abs(claims.iat - nowS())).toBeLessThanOrEqual(2);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("omits mv when no modelVersion is given; every token is unique", async () => {
    const body = { expireAt: nowS() + 60 };
    const t1 = (await json<{ sessionToken: string }>(await issue(body, key()))).sessionToken;
    const t2 = (await json<{ sessionToken: string }>(await issue(body, key()))).sessionToken;
    expect(t1).not.toBe(t2);
    expect(await verifySessionToken(t1, env.SESSION_TOKEN_PUBLIC_KEY)).not.toHaveProperty("mv");
  });

  it("expireAt must be later than now and earlier than now + 24 h", async () => {
    await expectError(
      await issue({ expireAt: nowS() - 10 }, key()),
      400,
      "invalid_request",
      "expireAt must be later than now",
    );
    await expectError(
      await issue({ expireAt: nowS() }, key()),
      400,
      "invalid_request",
      "expireAt must be later than now",
    );
    // The server reads its clock a moment after the test: stay 2 s clear of the boundary so a second
    // ticking over between the two can never flip the answer.
    await expectError(
      await issue({ expireAt: nowS() + 86_400 + 2 }, key()),
      400,
      "invalid_request",
      "expireAt must be earlier than now plus 24 hours",
    );
    await expectError(
      await issue({ expireAt: nowS() + 10 * 86_400 }, key()),
      400,
      "invalid_request",
      "earlier than now plus 24 hours",
    );
    await json(await issue({ expireAt: nowS() + 86_400 - 5 }, key()));
  });

  it("expireAt must be an integer number of seconds", async () => {
    await expectError(await issue({}, key()), 400, "invalid_request", "expireAt is required");
    await expectError(
      await issue({ expireAt: nowS() + 60.5 }, key()),
      400,
      "invalid_request",
      "expireAt must be an integer",
    );
    await expectError(
      await issue({ expireAt: String(nowS() + 60) }, key()),
      400,
      "invalid_request",
      "expireAt must be a number",
    );
    await expectError(
      await issue({ expireAt: (nowS() + 60) * 1000 }, key()),
      400,
      "invalid_request",
      "earlier than now plus 24 hours",
    );
  });

  it("validates modelVersion, unknown fields and JSON", async () => {
    await expectError(
      await issue({ expireAt: nowS() + 60, modelVersion: "" }, key()),
      400,
      "invalid_request",
      "modelVersion must be 1 to 128 characters",
    );
    await expectError(
      await issue({ expireAt: nowS() + 60, modelVersion: "a b" }, key()),
      400,
      "invalid_request",
      "modelVersion must be printable ASCII",
    );
    await expectError(
      await issue({ expireAt: nowS() + 60, modelVersion: "motion-9.9" }, key()),
      400,
      "invalid_request",
      "modelVersion must be a known model version: motion-2.1",
    );
    await expectError(
      await issue({ expireAt: nowS() + 60, scope: "all" }, key()),
      400,
      "invalid_request",
      "scope is not a known field",
    );
    await expectError(await issue("{", key()), 400, "invalid_request", "Request body must be valid JSON");
  });

  it("401 without a valid X-API-Key, for a revoked App or an inactive account", async () => {
    await expectError(await issue({ expireAt: nowS() + 60 }, {}), 401, "unauthorized", "Unauthorized.");
    await expectError(await issue({ expireAt: nowS() + 60 }, { "X-API-Key": "nope" }), 401, "unauthorized");
    await expectError(await issue({ expireAt: nowS() + 60 }, { "X-App-ID": a.appId }), 401, "unauthorized");
    const b = await createAccount();
    await patchAccount(b.accountId, { active: false });
    await expectError(await issue({ expireAt: nowS() + 60 }, { "X-API-Key": b.apiKey }), 401, "unauthorized");
  });
});

describe("verifySessionToken (motion services)", () => {
  const input = () => ({
    appId: "app-1",
    accountId: "acct-1",
    region: "ap-northeast" as const,
    expireAt: nowS() + 300,
    now: Date.now(),
  });

  it("accepts a valid token", async () => {
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, input());
    expect((await verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY)).region).toBe("ap-northeast");
  });

  it("rejects a tampered payload", async () => {
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, input());
    const [h, p, s] = token.split(".");
    const claims = JSON.parse(unb64url(p!));
    claims.acct = "someone-else";
    await expect(
      verifySessionToken(`${h}.${b64url(JSON.stringify(claims))}.${s}`, env.SESSION_TOKEN_PUBLIC_KEY),
    ).rejects.toMatchObject({
      reason: "bad_signature",
    });
    const flipped = s!.startsWith("A") ? `B${s!.slice(1)}` : `A${s!.slice(1)}`;
    await expect(verifySessionToken(`${h}.${p}.${flipped}`, env.SESSION_TOKEN_PUBLIC_KEY)).rejects.toBeInstanceOf(
      SessionTokenError,
    );
  });

  it("rejects a token signed by another key", async () => {
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, input());
    await expect(verifySessionToken(token, await otherPublicKey())).rejects.toMatchObject({ reason: "bad_signature" });
  });

  it("rejects it from its expiry second on", async () => {
    const i = input();
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, i);
    await expect(verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY, i.expireAt - 1)).resolves.toBeTruthy();
    await expect(verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY, i.expireAt)).rejects.toMatchObject({
      reason: "expired",
    });
    await expect(verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY, i.expireAt + 3600)).rejects.toMatchObject({
      reason: "expired",
    });
  });

  it("rejects other algorithms and malformed tokens", async () => {
    const token = await issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, input());
    const [, p, s] = token.split(".");
    await expect(
      verifySessionToken(`${b64url('{"alg":"none"}')}.${p}.`, env.SESSION_TOKEN_PUBLIC_KEY),
    ).rejects.toMatchObject({
      reason: "unsupported_algorithm",
    });
    await expect(
      verifySessionToken(`${b64url('{"alg":"HS256"}')}.${p}.${s}`, env.SESSION_TOKEN_PUBLIC_KEY),
    ).rejects.toMatchObject({
      reason: "unsupported_algorithm",
    });
    for (const bad of ["", "a.b", "a.b.c.d", "!!!.???.***", `${token}x`]) {
      await expect(verifySessionToken(bad, env.SESSION_TOKEN_PUBLIC_KEY)).rejects.toBeInstanceOf(SessionTokenError);
    }
  });
});
