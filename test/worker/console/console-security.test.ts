import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { app } from "../../../workers/app";
import { describe, expect, it } from "vitest";
import { createAccount } from "../helpers/accounts";
import { ADDRESS_FREE_FAILURES } from "../../../workers/console/sign-in-throttle";
import { ConsoleClient, PASSWORD, signedIn } from "../helpers/console";
import { type Envelope, insertAvatar, insertVideoJob } from "../helpers/open-fixtures";

const XSS = `<img src=x onerror=alert(1)>"'&`;

describe("console CSRF", () => {
  it("refuses a state change without the token, with a wrong token, or from another origin", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/apps");
    const noToken = await client.fetch("/console/apps", { form: { name: "x" }, csrf: false });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as Envelope).error).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("_csrf token is missing"),
    });
    const wrong = await client.fetch("/console/apps", { form: { name: "x", _csrf: "A".repeat(43) }, csrf: false });
    expect(wrong.status).toBe(403);
    const crossSite = await client.fetch("/console/apps", {
      form: { name: "x" },
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as Envelope).error.message).toContain(
      "Origin https://evil.example is not this site",
    );
    const noOrigin = await client.fetch("/console/apps", {
      form: { name: "x" },
      headers: { Origin: undefined as never },
    });
    expect([403]).toContain(noOrigin.status);
    // Another person's token does not work with this session.
    const other = await signedIn(a.accountId);
    const foreign = await client.fetch("/console/apps", { form: { name: "x", _csrf: other.client.csrf }, csrf: false });
    expect(foreign.status).toBe(403);
    const ok = await client.fetch("/console/apps", { form: { name: "legit" } });
    expect(ok.status).toBe(303);
  });

  it("protects sign-in and the JSON upload endpoints too", async () => {
    const c = new ConsoleClient();
    await c.page("/console/sign-in");
    expect((await c.fetch("/console/sign-in", { form: { email: "a@b.co", password: "x" }, csrf: false })).status).toBe(
      403,
    );
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const res = await client.fetch("/console/api/uploads", {
      json: { contentType: "audio/wav", size: 10 },
      csrf: false,
    });
    expect(res.status).toBe(403);
  });
});

describe("console account isolation", () => {
  it("another account's Avatar, video and App ids are 404", async () => {
    const mine = await createAccount();
    const theirs = await createAccount();
    const { client } = await signedIn(mine.accountId);
    const avatarId = await insertAvatar(theirs.accountId, { name: "Their Avatar" });
    const jobId = await insertVideoJob(theirs.accountId, avatarId, { status: "succeeded", outputKey: "videos/x.mp4" });
    const page = await client.fetch(`/console/avatars/${avatarId}`);
    expect(page.status).toBe(404);
    expect(((await page.json()) as Envelope).error.code).toBe("not_found");
    await client.page("/console/avatars");
    expect((await client.fetch(`/console/avatars/${avatarId}/background/remove`, { form: {} })).status).toBe(404);
    expect((await client.fetch(`/console/videos/${jobId}/file`)).status).toBe(404);
    expect((await client.fetch(`/console/apps/${theirs.appId}/disable`, { form: {} })).status).toBe(404);
    expect((await client.fetch(`/console/apps/${theirs.appId}/rotate`, { form: {} })).status).toBe(404);
    const list = await client.page("/console/avatars");
    expect(list.html).not.toContain("Their Avatar");
    const videos = (await (await client.fetch("/console/api/video-jobs")).json()) as { jobs: unknown[] };
    expect(videos.jobs).toEqual([]);
    // Their App still works.
    expect(
      (await env.DB.prepare("select revoked_at from apps where id = ?").bind(theirs.appId).first())!.revoked_at,
    ).toBeNull();
  });
});

describe("console documents", () => {
  it("every page, signed in or not, starts with the doctype (standards mode)", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    for (const path of ["/console/avatars", "/console/videos", "/console/apps", "/console/usage"])
      expect((await client.page(path)).html, path).toMatch(/^<!doctype html><html lang="en">/);
    expect(await (await new ConsoleClient().fetch("/console/sign-in")).text()).toMatch(/^<!doctype html>/);
  });
});

describe("page headers", () => {
  it("console pages: own browsing-context group, no microphone or other powers; HSTS only in production", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    for (const path of ["/console/avatars", "/console/apps", "/console/sign-in"]) {
      const { res } = await client.page(path);
      expect(res.headers.get("Cross-Origin-Opener-Policy"), path).toBe("same-origin");
      expect(res.headers.get("Permissions-Policy"), path).toMatch(/(^|, )microphone=\(\)/);
      expect(res.headers.get("Permissions-Policy"), path).toContain("camera=()");
      // The tests run as development (plain http on loopback): no HSTS.
      expect(res.headers.get("Strict-Transport-Security"), path).toBeNull();
    }
    const ctx = createExecutionContext();
    const production = await app.fetch(
      new Request("https://api.example.com/console/sign-in"),
      { ...env, ENVIRONMENT: undefined, PUBLIC_BASE_URL: "https://api.example.com" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(production.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect(production.headers.get("Cross-Origin-Opener-Policy")).toBe("same-origin");
  });
});

describe("console escaping", () => {
  it("renders caller-named things as text: Avatar names, job names, App names, failure messages", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const avatarId = await insertAvatar(a.accountId, { name: XSS });
    await insertVideoJob(a.accountId, avatarId, {
      name: XSS,
      status: "failed",
      errorCode: "render_failed",
      errorMessage: XSS,
      errorRetryable: true,
    });
    await client.page("/console/apps");
    await client.fetch("/console/apps", { form: { name: XSS } });
    for (const path of ["/console/avatars", `/console/avatars/${avatarId}`, "/console/videos", "/console/apps"]) {
      const { html } = await client.page(path);
      expect(html, path).not.toContain("<img src=x");
      expect(html, path).toContain("&lt;img src=x onerror=alert(1)&gt;");
    }
    const { res } = await client.page("/console/avatars");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'/);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("never echoes the notice query into the page", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { html } = await client.page(`/console/avatars?notice=${encodeURIComponent(XSS)}`);
    expect(html).not.toContain("onerror");
  });
});

describe("console sign-in throttling", () => {
  const tryOnce = async (email: string, password: string, ip: string) => {
    const c = new ConsoleClient();
    await c.page("/console/sign-in");
    return c.fetch("/console/sign-in", { form: { email, password }, headers: { "CF-Connecting-IP": ip } });
  };

  it("no targeted lockout: failures for an email from other addresses never refuse the right password", async () => {
    const a = await createAccount();
    const { email } = await signedIn(a.accountId);
    for (let i = 0; i < 12; i++) expect((await tryOnce(email, "wrong password!!", `203.0.113.${i}`)).status).toBe(401);
    // The person, from an address that has not been failing, gets in.
    expect((await tryOnce(email, PASSWORD, "198.51.100.7")).status).toBe(303);
    // The addresses that were guessing at this email are refused, the right password included.
    const blocked = await tryOnce(email, PASSWORD, "203.0.113.3");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain("Too many sign-in attempts");
  });

  it("a failing address backs off, whatever the emails (unknown ones included); others are unaffected", async () => {
    const a = await createAccount();
    const { email } = await signedIn(a.accountId);
    const ip = "192.0.2.77";
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++)
      expect((await tryOnce(`nobody${i}@example.com`, "wrong password!!", ip)).status).toBe(401);
    const refused = await tryOnce(email, PASSWORD, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await tryOnce(email, PASSWORD, "192.0.2.78")).status).toBe(303);
  });

  it("the backoff doubles with each failure of the address and stops at 15 minutes", async () => {
    const address = env.SIGN_IN_THROTTLE.getByName(`address:test-${crypto.randomUUID()}`);
    let now = 1_000_000;
    const waits: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await address.attemptFromAddress(now);
      expect(r.ok, `failure ${i + 1}`).toBe(true);
      const next = await address.attemptFromAddress(now);
      if (next.ok) {
        await address.forgive(next.attemptId); // taken back: only the first counted
        waits.push(0);
      } else {
        waits.push(next.retryAfterSeconds);
        now += next.retryAfterSeconds * 1000;
      }
    }
    expect(waits.slice(0, 8)).toEqual([0, 0, 0, 0, 1, 2, 4, 8]);
    expect(Math.max(...waits)).toBe(900);
    expect(waits.at(-1)).toBe(900);
  });

  it("the password form follows the same rule: others' failures for the email do not refuse the person", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    for (let i = 0; i < 12; i++) await tryOnce(email, "wrong password!!", `203.0.113.${100 + i}`);
    await client.page("/console/password");
    const changed = await client.fetch("/console/password", {
      form: { current: PASSWORD, password: "a new passphrase here", confirm: "a new passphrase here" },
      headers: { "CF-Connecting-IP": "198.51.100.9" },
    });
    expect(changed.status).toBe(303);
    // Guessing the current password backs off the guessing address.
    const other = (await signedIn(a.accountId)).client;
    await other.page("/console/password");
    const guess = () =>
      other.fetch("/console/password", {
        form: { current: "not it at all", password: "x".repeat(16), confirm: "x".repeat(16) },
        headers: { "CF-Connecting-IP": "198.51.100.10" },
      });
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) expect((await guess()).status).toBe(401);
    const refused = await guess();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("a successful sign-in does not count as a failure", async () => {
    const a = await createAccount();
    const { email } = await signedIn(a.accountId);
    for (let i = 0; i < 12; i++) expect((await tryOnce(email, PASSWORD, "198.18.0.1")).status).toBe(303);
  });
});
