import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminFetch, createAccount, patchAccount } from "../helpers/accounts";
import { expectError, grantAvatar, insertAvatar } from "../helpers/open-fixtures";
import { accept, motionAccount, nowS, readyAvatar, token, upgrade } from "../helpers/motion";
import { issueSessionToken } from "../../../workers/platform/session-token/issue";

const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

async function otherKeyToken(a: { appId: string; accountId: string }) {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  return issueSessionToken(btoa(String.fromCharCode(...pkcs8)), {
    appId: a.appId,
    accountId: a.accountId,
    region: "us-west",
    expireAt: nowS() + 60,
    now: Date.now(),
  });
}

describe("GET /v1/motion refuses before the upgrade, with the error envelope", () => {
  it("426 without an Upgrade: websocket header", async () => {
    const a = await motionAccount();
    const res = await SELF.fetch(`http://x/v1/motion?token=${await token(a)}&avatarId=${a.avatarId}`);
    await expectError(res, 426, "invalid_request", "opens a WebSocket");
  });

  it("401 for a missing, malformed, forged or expired token", async () => {
    const a = await motionAccount();
    await expectError(await upgrade({ avatarId: a.avatarId }), 401, "unauthorized", "A session token is required");
    await expectError(await upgrade({ token: "abc.def", avatarId: a.avatarId }), 401, "unauthorized", "malformed");
    await expectError(
      await upgrade({ token: await otherKeyToken(a), avatarId: a.avatarId }),
      401,
      "unauthorized",
      "signature does not verify",
    );
    const t = await token(a);
    const [h, p, s] = t.split(".");
    const claims = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
    const tampered = `${h}.${b64url(JSON.stringify({ ...claims, acct: crypto.randomUUID() }))}.${s}`;
    await expectError(
      await upgrade({ token: tampered, avatarId: a.avatarId }),
      401,
      "unauthorized",
      "signature does not verify",
    );
    await expectError(
      await upgrade({ token: `${b64url('{"alg":"none"}')}.${p}.`, avatarId: a.avatarId }),
      401,
      "unauthorized",
    );
    // Expired: a token whose expireAt has passed (issued for 1 s, used 2 s later).
    const short = await token(a, { expireAt: nowS() + 1 });
    await new Promise((r) => setTimeout(r, 2100));
    await expectError(await upgrade({ token: short, avatarId: a.avatarId }), 401, "unauthorized", "expired");
  });

  it("the token may come as the subprotocol token.<jwt> next to motion.v1, which is echoed", async () => {
    const a = await motionAccount();
    const res = await upgrade(
      { avatarId: a.avatarId },
      { "Sec-WebSocket-Protocol": `motion.v1, token.${await token(a)}` },
    );
    expect(res.status).toBe(101);
    expect(res.headers.get("Sec-WebSocket-Protocol")).toBe("motion.v1");
    accept(res).ws.close(1000);
    await expectError(
      await upgrade({ avatarId: a.avatarId, token: await token(a) }, { "Sec-WebSocket-Protocol": "chat" }),
      400,
      "invalid_request",
      "must include motion.v1",
    );
  });

  it("single use: a token opens one connection; the second use is 401 even after the first closed", async () => {
    const a = await motionAccount();
    const t = await token(a);
    const res = await upgrade({ token: t, avatarId: a.avatarId });
    expect(res.status).toBe(101);
    await expectError(await upgrade({ token: t, avatarId: a.avatarId }), 401, "unauthorized", "already used");
    const c = accept(res);
    c.ws.close(1000, "bye");
    await c.closed;
    await expectError(await upgrade({ token: t, avatarId: a.avatarId }), 401, "unauthorized", "already used");
  });

  it("401 for a token of another region", async () => {
    const a = await motionAccount();
    for (const region of ["ap-northeast", "cn-beijing"] as const) {
      await expectError(
        await upgrade({ token: await token(a, { region }), avatarId: a.avatarId }),
        401,
        "unauthorized",
        `issued for region ${region}`,
      );
    }
  });

  it("400 for a model version this service does not serve, listing the known ones", async () => {
    const a = await motionAccount();
    await expectError(
      await upgrade({ token: await token(a, { modelVersion: "motion-0.9" }), avatarId: a.avatarId }),
      400,
      "invalid_request",
      "known model versions are motion-2.1",
    );
    const res = await upgrade({ token: await token(a, { modelVersion: "motion-2.1" }), avatarId: a.avatarId });
    expect(res.status).toBe(101);
    accept(res).ws.close(1000);
  });

  it("400 for a missing or malformed avatarId", async () => {
    const a = await motionAccount();
    await expectError(await upgrade({ token: await token(a) }), 400, "invalid_request", "avatarId is required");
    await expectError(
      await upgrade({ token: await token(a), avatarId: "nope" }),
      400,
      "invalid_request",
      "avatarId must be a UUID",
    );
  });

  it("403 for an inactive account or one without API access; 401 once the App is revoked", async () => {
    const a = await motionAccount();
    const t = await token(a);
    await patchAccount(a.accountId, { openApiAccess: false });
    await expectError(
      await upgrade({ token: t, avatarId: a.avatarId }),
      403,
      "forbidden",
      "Open API access is not configured",
    );
    await patchAccount(a.accountId, { openApiAccess: true, active: false });
    await expectError(await upgrade({ token: t, avatarId: a.avatarId }), 403, "forbidden", "inactive");
    const b = await motionAccount();
    const t2 = await token(b);
    expect((await adminFetch(`/apps/${b.appId}`, { method: "DELETE" })).status).toBe(204);
    await expectError(await upgrade({ token: t2, avatarId: b.avatarId }), 401, "unauthorized", "revoked");
  });

  it("404 for an Avatar that does not exist, is not ready or belongs to another account; public and granted ones work", async () => {
    const a = await motionAccount();
    await expectError(
      await upgrade({ token: await token(a), avatarId: crypto.randomUUID() }),
      404,
      "not_found",
      "does not exist",
    );
    const notReady = await insertAvatar(a.accountId); // no rig in storage yet
    await expectError(await upgrade({ token: await token(a), avatarId: notReady }), 404, "not_found");
    const other = await createAccount();
    const theirs = await readyAvatar(other.accountId);
    await expectError(await upgrade({ token: await token(a), avatarId: theirs }), 404, "not_found");
    const pub = await readyAvatar(other.accountId, { isPublic: true });
    const granted = await readyAvatar(other.accountId);
    await grantAvatar(granted, a.accountId);
    for (const id of [pub, granted]) {
      const res = await upgrade({ token: await token(a), avatarId: id });
      expect(res.status).toBe(101);
      accept(res).ws.close(1000);
    }
  });

  it("a refused connection does not spend its token", async () => {
    const a = await motionAccount();
    const t = await token(a);
    await expectError(await upgrade({ token: t, avatarId: crypto.randomUUID() }), 404, "not_found");
    const res = await upgrade({ token: t, avatarId: a.avatarId });
    expect(res.status).toBe(101);
    accept(res).ws.close(1000);
  });

  it("the rig link from ready is signed, carries a signed portrait link, and refuses a bad signature", async () => {
    const a = await motionAccount();
    const c = accept(await upgrade({ token: await token(a), avatarId: a.avatarId }));
    c.ws.send(JSON.stringify({ type: "start", sampleRate: 16000 }));
    await new Promise((r) => setTimeout(r, 100));
    const ready = c.messages.find((m) => m.type === "ready")!;
    c.ws.close(1000);
    const rig = await SELF.fetch(ready.avatar.rigUrl);
    expect(rig.status).toBe(200);
    expect(rig.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const body = (await rig.json()) as { landmarks: unknown[]; portraitUrl: string };
    expect(body.landmarks).toHaveLength(478);
    expect((await SELF.fetch(body.portraitUrl)).headers.get("Content-Type")).toBe("image/png");
    // A different first character (never the same one: "A" → "B"), so the signature really changes.
    const forged = ready.avatar.rigUrl.replace(/sig=(.)/, (_: string, ch: string) => `sig=${ch === "A" ? "B" : "A"}`);
    await expectError(await SELF.fetch(forged), 403, "forbidden");
    expect(env.SESSION_TOKEN_PUBLIC_KEY).toBeTruthy();
  });
});
