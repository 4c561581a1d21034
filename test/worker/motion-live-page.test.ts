import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifySessionToken } from "../../workers/platform/session-token/verify";
import { env } from "cloudflare:test";
import { expectError, json } from "./open-fixtures";
import { motionAccount, nowS } from "./motion-helpers";
import { createAccount, patchAccount } from "./helpers/accounts";

describe("/console/live", () => {
  it("serves the page and the motion-client module", async () => {
    const page = await SELF.fetch("http://x/console/live");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const label of ["App ID", "API key", "Load Avatars", "Talk into the microphone", "Play an audio file"])
      expect(html).toContain(label);
    const js = await SELF.fetch("http://x/console/live/motion-client.js");
    expect(js.headers.get("Content-Type")).toContain("text/javascript");
    expect(await js.text()).toContain("motion.v1");
  });

  it("mints a one-minute token server-side from App ID + API key and lists the account's Avatars", async () => {
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

  it("has the console's page headers: no framing, no-store, a strict CSP without inline code", async () => {
    const page = await SELF.fetch("http://x/console/live");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const csp = page.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' blob:;/);
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
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
