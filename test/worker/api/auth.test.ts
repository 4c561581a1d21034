import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminFetch, createAccount, createApp, openFetch, patchAccount } from "../helpers/accounts";
import { probe } from "../helpers/probe-app";
import { PLACES, requestWithHeaders, WHITESPACE } from "../helpers/whitespace";
import { app as worker } from "../../../workers/app";
import { bearerCredential, credentialField } from "../../../workers/platform/auth/credentials";

type Json = Record<string, unknown>;

async function expectUnauthorized(res: Response) {
  expect(res.status).toBe(401);
  const body = (await res.json()) as Json;
  // The same body whatever was wrong: never says which part failed.
  expect(body).toEqual({
    error: { code: "unauthorized", message: "Unauthorized.", requestId: res.headers.get("X-Request-ID") },
  });
}

describe("header credentials: what can travel", () => {
  it("the credential parser keeps every character except surrounding SP/HTAB (real code points, not just wire bytes)", () => {
    for (const ch of Object.values(WHITESPACE)) {
      expect(credentialField(`key${ch}`)).toBe(`key${ch}`);
      expect(credentialField(`${ch}key`)).toBe(`${ch}key`);
      expect(bearerCredential(`Bearer tok${ch}`)).toBe(`tok${ch}`);
      expect(bearerCredential(`Bearer ${ch}tok`)).toBe(`${ch}tok`);
    }
    expect(credentialField(" \t key \t ")).toBe("key");
    expect(credentialField(" \t ")).toBeUndefined();
    expect(bearerCredential("bearer\t tok ")).toBe("tok");
    expect(bearerCredential("Bearer")).toBeUndefined();
    expect(bearerCredential("Basic tok")).toBeUndefined();
  });
});

async function expectForbidden(res: Response, message: string) {
  expect(res.status).toBe(403);
  const body = (await res.json()) as Json;
  expect(body.error).toMatchObject({ code: "forbidden", message });
}

describe("App authentication (X-App-ID + X-API-Key)", () => {
  it("a matching pair of an active account authenticates and identifies App and account", async () => {
    const acc = await createAccount();
    const res = await probe("/v1/open/avatars", { headers: acc.headers });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ appId: acc.appId, accountId: acc.accountId });
  });

  it("App ID and key are byte-exact: only SP/HTAB around them are dropped (as HTTP does), case is not folded", async () => {
    const acc = await createAccount();
    const padded = { "X-App-ID": ` \t${acc.appId}\t `, "X-API-Key": `\t ${acc.apiKey} \t` };
    expect((await probe("/v1/open/avatars", { headers: padded })).status).toBe(200);
    await expectUnauthorized(
      await probe("/v1/open/avatars", { headers: { ...acc.headers, "X-App-ID": acc.appId.toUpperCase() } }),
    );
  });

  it("any other whitespace before or after the App ID or the key → the same 401 as a wrong key", async () => {
    const acc = await createAccount();
    // Through the real Worker, with the code points workerd hands it (see requestWithHeaders).
    const send = (headers: Record<string, string>, path = "/v1/open/avatars", method = "GET") =>
      worker.fetch(requestWithHeaders(`http://x${path}`, headers, { method }), env, createExecutionContext());
    expect((await send(acc.headers)).status).toBe(200);
    for (const [name, ch] of Object.entries(WHITESPACE)) {
      for (const [where, wrap] of Object.entries(PLACES)) {
        for (const header of ["X-App-ID", "X-API-Key"] as const) {
          const res = await send({ ...acc.headers, [header]: wrap(acc.headers[header], ch) });
          expect(res.status, `${name} ${where} ${header}`).toBe(401);
          await expectUnauthorized(res);
        }
        const consoleRes = await send({ "X-API-Key": wrap(acc.apiKey, ch) }, "/v1/console/session-tokens", "POST");
        expect(consoleRes.status, `${name} ${where} console key`).toBe(401);
        await expectUnauthorized(consoleRes);
      }
    }
  });

  it("every kind of bad credential → the same 401", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const cases: Record<string, Record<string, string>> = {
      "no headers": {},
      "missing X-App-ID": { "X-API-Key": a.apiKey },
      "missing X-API-Key": { "X-App-ID": a.appId },
      "empty key": { "X-App-ID": a.appId, "X-API-Key": "" },
      "wrong key": { "X-App-ID": a.appId, "X-API-Key": `${a.apiKey}x` },
      "key of another App (mismatched pair)": { "X-App-ID": a.appId, "X-API-Key": b.apiKey },
      "unknown App": { "X-App-ID": crypto.randomUUID(), "X-API-Key": a.apiKey },
      "malformed App ID": { "X-App-ID": "app-1", "X-API-Key": a.apiKey },
      "hash instead of key": { "X-App-ID": a.appId, "X-API-Key": "0".repeat(64) },
    };
    for (const [what, headers] of Object.entries(cases)) {
      const res = await probe("/v1/open/avatars", { headers });
      expect(res.status, what).toBe(401);
      await expectUnauthorized(res);
    }
  });

  it("401 comes before any 403: bad credentials on an account without access are still 401", async () => {
    const acc = await createAccount({ openApiAccess: false });
    await expectUnauthorized(await probe("/v1/open/avatars", { headers: { ...acc.headers, "X-API-Key": "nope" } }));
  });

  it("revoking an App stops its key at once; other Apps of the account keep working", async () => {
    const acc = await createAccount();
    const sibling = await createApp(acc.accountId);
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await adminFetch(`/apps/${acc.appId}`, { method: "DELETE" })).status).toBe(204);
    await expectUnauthorized(await probe("/v1/open/avatars", { headers: acc.headers }));
    await expectUnauthorized(
      await probe("/v1/console/session-tokens", { method: "POST", headers: { "X-API-Key": acc.apiKey } }),
    );
    expect((await probe("/v1/open/avatars", { headers: sibling.headers })).status).toBe(200);
  });

  it("an inactive owner account → 401 for all its Apps; reactivating restores access", async () => {
    const acc = await createAccount();
    await patchAccount(acc.accountId, { active: false });
    await expectUnauthorized(await probe("/v1/open/avatars", { headers: acc.headers }));
    await expectUnauthorized(await probe("/v1/open/video-jobs", { headers: acc.headers }));
    await expectUnauthorized(
      await probe("/v1/console/session-tokens", { method: "POST", headers: { "X-API-Key": acc.apiKey } }),
    );
    await patchAccount(acc.accountId, { active: true });
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
  });

  it("an account created inactive cannot authenticate", async () => {
    const acc = await createAccount({ active: false });
    await expectUnauthorized(await probe("/v1/open/avatars", { headers: acc.headers }));
  });

  it("keys are stored hashed: the stored value does not authenticate", async () => {
    const acc = await createAccount();
    const row = await env.DB.prepare("select key_hash from apps where id = ?")
      .bind(acc.appId)
      .first<{ key_hash: string }>();
    await expectUnauthorized(
      await probe("/v1/open/avatars", { headers: { "X-App-ID": acc.appId, "X-API-Key": row!.key_hash } }),
    );
  });
});

describe("console authentication (X-API-Key only)", () => {
  it("the key alone identifies the App", async () => {
    const acc = await createAccount();
    const res = await probe("/v1/console/session-tokens", { method: "POST", headers: { "X-API-Key": acc.apiKey } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ appId: acc.appId, accountId: acc.accountId });
  });

  it("missing or unknown key → 401", async () => {
    await expectUnauthorized(await probe("/v1/console/session-tokens", { method: "POST" }));
    await expectUnauthorized(
      await probe("/v1/console/session-tokens", { method: "POST", headers: { "X-API-Key": "avk_nope" } }),
    );
  });
});

describe("access flags → 403 forbidden with the spec's messages", () => {
  it("no Open API access: every route is 403", async () => {
    const acc = await createAccount({ openApiAccess: false });
    for (const [method, path] of [
      ["GET", "/v1/open/avatars"],
      ["POST", "/v1/open/avatars"],
      ["GET", "/v1/open/video-jobs"],
      ["POST", "/v1/open/videos"],
    ]) {
      await expectForbidden(await probe(path, { method, headers: acc.headers }), "Open API access is not configured");
    }
  });

  it("Avatar creation disabled: POST /avatars is 403, Avatar reads keep working", async () => {
    const acc = await createAccount({ avatarCreationEnabled: false });
    await expectForbidden(
      await probe("/v1/open/avatars", { method: "POST", headers: acc.headers }),
      "API Avatar creation is disabled",
    );
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await probe("/v1/open/avatar-jobs", { headers: acc.headers })).status).toBe(200);
    // Video is independent of Avatar creation.
    expect((await probe("/v1/open/videos", { method: "POST", headers: acc.headers })).status).toBe(200);
  });

  it("video access removed: video reads and creation are 403, Avatar routes unaffected", async () => {
    const acc = await createAccount();
    expect((await probe("/v1/open/video-jobs", { headers: acc.headers })).status).toBe(200);
    await patchAccount(acc.accountId, { videoAccess: false });
    await expectForbidden(
      await probe("/v1/open/video-jobs", { headers: acc.headers }),
      "Video API access is not configured.",
    );
    await expectForbidden(
      await probe("/v1/open/videos", { method: "POST", headers: acc.headers }),
      "Video API access is not configured.",
    );
    expect((await probe("/v1/open/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await probe("/v1/open/avatars", { method: "POST", headers: acc.headers })).status).toBe(200);
  });

  it("video creation disabled: POST /videos is 403, video reads keep working", async () => {
    const acc = await createAccount({ videoCreationEnabled: false });
    await expectForbidden(
      await probe("/v1/open/videos", { method: "POST", headers: acc.headers }),
      "Video creation is disabled for this account; reads remain available.",
    );
    expect((await probe("/v1/open/video-jobs", { headers: acc.headers })).status).toBe(200);
  });

  it("flags take effect on the next request (no caching)", async () => {
    const acc = await createAccount();
    expect((await probe("/v1/open/avatars", { method: "POST", headers: acc.headers })).status).toBe(200);
    await patchAccount(acc.accountId, { avatarCreationEnabled: false });
    expect((await probe("/v1/open/avatars", { method: "POST", headers: acc.headers })).status).toBe(403);
    await patchAccount(acc.accountId, { avatarCreationEnabled: true });
    expect((await probe("/v1/open/avatars", { method: "POST", headers: acc.headers })).status).toBe(200);
  });
});

describe("on the real routes", () => {
  const IMAGE = "https://example.com/portrait.jpg";
  const session = (headers: Record<string, string>) =>
    SELF.fetch("http://x/v1/console/session-tokens", {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
    });
  const reads = [
    "/avatars",
    "/avatar-jobs",
    "/video-jobs",
    `/avatars/${crypto.randomUUID()}`,
    `/avatar-jobs/${crypto.randomUUID()}`,
    `/video-jobs/${crypto.randomUUID()}`,
  ];

  it("every /v1/open route: bad credentials → 401 (before validation and access checks)", async () => {
    const acc = await createAccount({ openApiAccess: false });
    const bad = { "X-App-ID": acc.appId, "X-API-Key": "wrong" };
    for (const path of reads) await expectUnauthorized(await openFetch(path, { headers: bad }));
    await expectUnauthorized(await openFetch("/avatars", { headers: bad, body: { nonsense: 1 } }));
    await expectUnauthorized(await openFetch("/videos", { headers: {}, body: {} }));
    await expectUnauthorized(await session({ "X-App-ID": acc.appId }));
  });

  it("revocation and deactivation take effect on the next request, session tokens included", async () => {
    const acc = await createAccount();
    expect((await openFetch("/avatars", { headers: acc.headers })).status).toBe(200);
    expect((await session({ "X-API-Key": acc.apiKey })).status).toBe(200);
    expect((await adminFetch(`/apps/${acc.appId}`, { method: "DELETE" })).status).toBe(204);
    await expectUnauthorized(await openFetch("/avatars", { headers: acc.headers }));
    await expectUnauthorized(await session({ "X-API-Key": acc.apiKey }));

    const other = await createAccount();
    await patchAccount(other.accountId, { active: false });
    await expectUnauthorized(await openFetch("/video-jobs", { headers: other.headers }));
    await expectUnauthorized(await session({ "X-API-Key": other.apiKey }));
  });

  it("403 messages: API access, Avatar creation (reads kept), video access (reads blocked), video creation (reads kept)", async () => {
    const noApi = await createAccount({ openApiAccess: false });
    for (const path of reads)
      await expectForbidden(await openFetch(path, { headers: noApi.headers }), "Open API access is not configured");
    await expectForbidden(
      await openFetch("/avatars", { headers: noApi.headers, body: { imageUrl: IMAGE } }),
      "Open API access is not configured",
    );

    const noCreation = await createAccount({ avatarCreationEnabled: false });
    await expectForbidden(
      await openFetch("/avatars", { headers: noCreation.headers, body: { imageUrl: IMAGE } }),
      "API Avatar creation is disabled",
    );
    expect((await openFetch("/avatars", { headers: noCreation.headers })).status).toBe(200);
    expect((await openFetch("/avatar-jobs", { headers: noCreation.headers })).status).toBe(200);

    const video = await createAccount();
    expect((await openFetch("/video-jobs", { headers: video.headers })).status).toBe(200);
    await patchAccount(video.accountId, { videoAccess: false });
    await expectForbidden(
      await openFetch("/video-jobs", { headers: video.headers }),
      "Video API access is not configured.",
    );
    await expectForbidden(
      await openFetch(`/video-jobs/${crypto.randomUUID()}`, { headers: video.headers }),
      "Video API access is not configured.",
    );
    await expectForbidden(
      await openFetch("/videos", { headers: video.headers, body: {} }),
      "Video API access is not configured.",
    );
    expect((await openFetch("/avatars", { headers: video.headers })).status).toBe(200);

    const noVideoCreation = await createAccount({ videoCreationEnabled: false });
    await expectForbidden(
      await openFetch("/videos", { headers: noVideoCreation.headers, body: {} }),
      "Video creation is disabled for this account; reads remain available.",
    );
    expect((await openFetch("/video-jobs", { headers: noVideoCreation.headers })).status).toBe(200);
  });
});
