import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../../workers/app";
import { adminFetch, createAccount, createApp, patchAccount } from "../helpers/accounts";
import { invite, signedIn } from "../helpers/console";
import { insertAvatar } from "../helpers/pipeline";

// Admin actions leave a trail (docs/admin-api.md, "Audit trail") and can sit behind Cloudflare Access.

type Entry = {
  actor: string;
  action: string;
  accountId: string | null;
  target: string | null;
  before: unknown;
  after: unknown;
  at: string;
};
async function audit(accountId?: string) {
  const res = await adminFetch(`/audit${accountId ? `?accountId=${accountId}` : ""}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: Entry[] }).entries;
}

describe("admin audit trail", () => {
  it("every admin write records who, what, when, before → after; never a key or an invite token", async () => {
    const acct = await createAccount({ avatarUnits: 5 });
    await patchAccount(acct.accountId, { videoCreationEnabled: false });
    await adminFetch(`/accounts/${acct.accountId}/avatar-units`, { body: { delta: 3 } });
    const extra = await createApp(acct.accountId, "Second");
    await adminFetch(`/apps/${extra.appId}`, { method: "DELETE" });
    const avatarId = await insertAvatar(acct.accountId);
    const other = await createAccount();
    await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [other.accountId] } });
    const { email } = await signedIn(acct.accountId);
    const invitePath = await invite(acct.accountId, "later@example.com", "member");
    await adminFetch(`/accounts/${acct.accountId}/console-invites?email=later@example.com`, { method: "DELETE" });
    const { people } = (await (await adminFetch(`/accounts/${acct.accountId}/console-users`)).json()) as {
      people: { id: string }[];
    };
    const userId = people[0]!.id;
    await adminFetch(`/console-users/${userId}`, { method: "PATCH", body: { role: "member" } });
    await adminFetch(`/console-users/${userId}/sessions`, { method: "DELETE" });
    await adminFetch(`/console-users/${userId}`, { method: "DELETE" });
    await adminFetch(`/accounts/${acct.accountId}/reconcile`, { method: "POST" });

    const entries = await audit(acct.accountId);
    const actions = entries.map((e) => e.action).reverse();
    expect(actions).toEqual([
      "POST /accounts",
      "POST /accounts/:accountId/apps",
      "PATCH /accounts/:accountId",
      "POST /accounts/:accountId/avatar-units",
      "POST /accounts/:accountId/apps",
      "DELETE /apps/:appId",
      "PUT /avatars/:avatarId/access",
      "POST /accounts/:accountId/console-invites",
      "POST /accounts/:accountId/console-invites",
      "DELETE /accounts/:accountId/console-invites",
      "PATCH /console-users/:userId",
      "DELETE /console-users/:userId/sessions",
      "DELETE /console-users/:userId",
      "POST /accounts/:accountId/reconcile",
    ]);
    for (const e of entries) {
      expect(e.actor).toBe("admin token");
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(60_000);
    }
    const byAction = (a: string) => entries.find((e) => e.action === a)!;
    expect(byAction("PATCH /accounts/:accountId")).toMatchObject({
      accountId: acct.accountId,
      before: { videoCreationEnabled: true },
      after: { videoCreationEnabled: false },
    });
    expect(byAction("POST /accounts/:accountId/avatar-units")).toMatchObject({
      before: { avatarUnits: 5 },
      after: { avatarUnits: 8, delta: 3 },
    });
    expect(byAction("DELETE /apps/:appId")).toMatchObject({
      target: extra.appId,
      before: { revokedAt: null },
      after: { revokedAt: expect.any(String) },
    });
    expect(byAction("PUT /avatars/:avatarId/access")).toMatchObject({
      before: { allowAccountIds: [] },
      after: { allowAccountIds: [other.accountId] },
    });
    expect(byAction("PATCH /console-users/:userId")).toMatchObject({
      before: { role: "owner" },
      after: { role: "member" },
    });
    expect(byAction("DELETE /console-users/:userId")).toMatchObject({ target: userId, before: { email } });
    // No secret anywhere in the trail.
    const all = JSON.stringify(await audit());
    for (const secret of [acct.apiKey, extra.apiKey, invitePath.split("/").pop()!]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/avk_|pbkdf2|key_?hash|\/console\/invite\//i);
  });

  it("reads and refused writes leave no entry", async () => {
    const acct = await createAccount();
    const before = (await audit(acct.accountId)).length;
    await adminFetch(`/accounts/${acct.accountId}`);
    expect((await adminFetch(`/accounts/${acct.accountId}`, { method: "PATCH", body: { active: "yes" } })).status).toBe(
      400,
    );
    expect((await audit(acct.accountId)).length).toBe(before);
    expect((await adminFetch("/audit?limit=0")).status).toBe(400);
  });
});

describe("admin API behind Cloudflare Access", () => {
  const TEAM = "example-team.cloudflareaccess.com";
  const AUD = "test-access-aud";
  afterEach(() => vi.restoreAllMocks());

  async function accessKeys() {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url === `https://${TEAM}/cdn-cgi/access/certs`) return Response.json({ keys: [jwk] });
      return new Response("no network", { status: 502 });
    });
    const jwt = (claims: { aud?: string; iss?: string; exp?: string } = {}) =>
      new SignJWT({ email: "operator@example.com" })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(claims.iss ?? `https://${TEAM}`)
        .setAudience(claims.aud ?? AUD)
        .setIssuedAt()
        .setExpirationTime(claims.exp ?? "5m")
        .sign(privateKey);
    return { jwt };
  }

  async function admin(path: string, headers: Record<string, string>, init: RequestInit = {}) {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`http://x/v1/admin${path}`, { ...init, headers: { ...headers, ...init.headers } }),
      { ...env, ADMIN_ACCESS_AUD: AUD, ADMIN_ACCESS_TEAM_DOMAIN: TEAM },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("with ADMIN_ACCESS_AUD set, the admin token alone is refused; token + valid Access JWT is served", async () => {
    const { jwt } = await accessKeys();
    const token = { Authorization: "Bearer test-admin-token" };
    expect((await admin("/jobs/active", token)).status).toBe(401);
    expect((await admin("/jobs/active", { ...token, "Cf-Access-Jwt-Assertion": "not.a.jwt" })).status).toBe(401);
    for (const bad of [await jwt({ aud: "other-app" }), await jwt({ iss: "https://evil.cloudflareaccess.com" })])
      expect((await admin("/jobs/active", { ...token, "Cf-Access-Jwt-Assertion": bad })).status).toBe(401);
    const good = await jwt();
    expect((await admin("/jobs/active", { "Cf-Access-Jwt-Assertion": good })).status).toBe(401); // no token
    expect((await admin("/jobs/active", { ...token, "Cf-Access-Jwt-Assertion": good })).status).toBe(200);
    // The Access identity is who the audit trail names.
    const created = await admin(
      "/accounts",
      { ...token, "Cf-Access-Jwt-Assertion": good, "Content-Type": "application/json" },
      { method: "POST", body: JSON.stringify({ name: "Via Access" }) },
    );
    expect(created.status).toBe(201);
    const { account } = (await created.json()) as { account: { id: string } };
    const [entry] = await audit(account.id);
    expect(entry).toMatchObject({ actor: "access:operator@example.com", action: "POST /accounts" });
  });

  it("without ADMIN_ACCESS_AUD the admin token suffices (local and tests)", async () => {
    expect((await adminFetch("/jobs/active")).status).toBe(200);
  });
});
