import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifySessionToken } from "../../../workers/platform/session-token/verify";
import { env } from "cloudflare:test";
import { expectError, json } from "../helpers/open-fixtures";
import { accept, motionAccount, nowS, upgrade } from "../helpers/motion";
import { adminFetch, createAccount, patchAccount } from "../helpers/accounts";
import { signedIn } from "../helpers/console";

describe("/console/live", () => {
  it("serves the page to a signed-in console person only, with no API key field, and the motion-client module", async () => {
    const signedOut = await SELF.fetch("http://x/console/live", { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toBe("/console/sign-in");
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { res, html } = await client.page("/console/live");
    expect(res.status).toBe(200);
    for (const label of ["Load Avatars", "Talk into the microphone", "Play an audio file"])
      expect(html).toContain(label);
    expect(html).not.toMatch(/API key<\/label>|id="apiKey"|id="appId"|type="password"/);
    const js = await SELF.fetch("http://x/console/live/motion-client.js");
    expect(js.headers.get("Content-Type")).toContain("text/javascript");
    expect(await js.text()).toContain("motion.v1");
  });

  it("a signed-in person's page gets session tokens from the console session; they open a motion connection", async () => {
    const a = await motionAccount();
    const { client, email } = await signedIn(a.accountId);
    await client.page("/console/live");
    expect((await client.fetch("/console/live/token", { method: "POST", csrf: false })).status).toBe(403);
    const res = await client.fetch("/console/live/token", { method: "POST", headers: { "X-CSRF-Token": client.csrf } });
    const body = await json<{ sessionToken: string; avatars: Array<{ id: string }> }>(res);
    expect(body.avatars.map((x) => x.id)).toEqual([a.avatarId]);
    const claims = await verifySessionToken(body.sessionToken, env.SESSION_TOKEN_PUBLIC_KEY);
    expect(claims).toMatchObject({ acct: a.accountId, sub: expect.stringMatching(/^person:[0-9a-f-]{36}$/) });
    expect(claims.exp - nowS()).toBeLessThanOrEqual(60);
    const open = await upgrade({ avatarId: a.avatarId, token: body.sessionToken });
    expect(open.status).toBe(101);
    accept(open).ws.close(1000);
    // A removed person's fresh token no longer opens a connection, and the page's token route answers 401.
    const next = await json<{ sessionToken: string }>(
      await client.fetch("/console/live/token", { method: "POST", headers: { "X-CSRF-Token": client.csrf } }),
    );
    const { people } = await json<{ people: { id: string; email: string }[] }>(
      await adminFetch(`/accounts/${a.accountId}/console-users`),
    );
    await adminFetch(`/console-users/${people.find((p) => p.email === email)!.id}`, { method: "DELETE" });
    await expectError(
      await upgrade({ avatarId: a.avatarId, token: next.sessionToken }),
      401,
      "unauthorized",
      "removed",
    );
    expect(
      (await client.fetch("/console/live/token", { method: "POST", headers: { "X-CSRF-Token": client.csrf } })).status,
    ).toBe(401);
  });

  it("backends keep the App-key flow: a one-minute token from App ID + API key and the account's Avatars", async () => {
    const a = await motionAccount();
    const body = await json<{ sessionToken: string; expireAt: number; avatars: Array<{ id: string }> }>(
      await SELF.fetch("http://x/console/live/session", { method: "POST", headers: a.headers }),
    );
    expect(body.avatars.map((x) => x.id)).toEqual([a.avatarId]);
    const claims = await verifySessionToken(body.sessionToken, env.SESSION_TOKEN_PUBLIC_KEY);
    expect(claims).toMatchObject({ sub: a.appId, acct: a.accountId });
    expect(claims.exp - nowS()).toBeLessThanOrEqual(60);
    await expectError(
      await SELF.fetch("http://x/console/live/session", {
        method: "POST",
        headers: { "X-App-ID": a.appId, "X-API-Key": "wrong" },
      }),
      401,
      "unauthorized",
    );
  });

  it("has the console's page headers: no framing, no-store, a strict CSP without inline code; the microphone", async () => {
    const { client } = await signedIn((await createAccount()).accountId);
    const page = (await client.page("/console/live")).res;
    expect(page.headers.get("Permissions-Policy")).toMatch(/(^|, )microphone=\(self\)/);
    expect(page.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const csp = page.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' blob:;/);
    expect(csp).not.toContain("unsafe-inline");
    const html = (await client.page("/console/live")).html;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style="/);
    for (const [path, type] of [
      ["/console/live/live.js", "text/javascript"],
      ["/console/live/live.css", "text/css"],
    ] as const) {
      const res = await SELF.fetch(`http://x${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toContain(type);
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("the session route has /v1/open's access rules and Avatar read limits", async () => {
    const a = await motionAccount();
    await patchAccount(a.accountId, { openApiAccess: false });
    await expectError(
      await SELF.fetch("http://x/console/live/session", { method: "POST", headers: a.headers }),
      403,
      "forbidden",
    );

    const b = await createAccount({ limits: { avatar: { readBurst: 2, readsPerSecond: 1 } } });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await SELF.fetch("http://x/console/live/session", { method: "POST", headers: b.headers });
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await expectError(refused!, 429, "rate_limit_exceeded");
  });
});
