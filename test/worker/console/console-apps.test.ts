import { describe, expect, it } from "vitest";
import { createAccount, createApp, openFetch } from "../helpers/accounts";
import { type ConsoleClient, signedIn } from "../helpers/console";
import type { Envelope } from "../helpers/open-fixtures";

/** Status of an Open API read with this App ID and key. */
const openStatus = async (appId: string, apiKey: string) =>
  (await openFetch("/avatars", { headers: { "X-App-ID": appId, "X-API-Key": apiKey } })).status;
const shownKey = (html: string) => /<code id="new-api-key">([^<]+)<\/code>/.exec(html)?.[1];
const shownAppId = (html: string) => /<code id="new-app-id">([^<]+)<\/code>/.exec(html)?.[1];
/** The row of one App on the Apps page (from its App ID cell to the end of the row). */
const appRow = (html: string, appId: string) => {
  const start = html.indexOf(`<code>${appId}</code>`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</tr>", start));
};

/** A POST that makes a key answers 303 to the Apps page (post/redirect/get); the one view after it shows the key. */
async function followToKey(client: ConsoleClient, res: Response) {
  expect(res.status).toBe(303);
  expect(res.headers.get("Location")).toBe("/console/apps");
  expect(await res.text()).not.toMatch(/new-api-key/);
  const { res: view, html } = await client.page("/console/apps");
  expect(view.headers.get("Cache-Control")).toContain("no-store");
  return html;
}

async function createInConsole(client: ConsoleClient, name: string) {
  await client.page("/console/apps");
  const html = await followToKey(client, await client.fetch("/console/apps", { form: { name } }));
  const appId = shownAppId(html)!;
  const apiKey = shownKey(html)!;
  expect(appId).toMatch(/^[0-9a-f-]{36}$/);
  expect(apiKey).toBeTruthy();
  return { appId, apiKey };
}

describe("console Apps: create and rotate", () => {
  it("Create App shows the App ID and key once, with copy buttons; the key works on the Open API and is never shown again", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { appId, apiKey } = await createInConsole(client, "Backend");
    expect(await openStatus(appId, apiKey)).toBe(200);
    const { res, html } = await client.page("/console/apps");
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    expect(html).not.toContain(apiKey);
    expect(html).not.toContain('id="new-api-key"');
    expect(appRow(html, appId)).toContain("active");
  });

  it("Rotate key shows the new key once: the old key gets 401, the new one works, reloads never show it", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { appId, apiKey: oldKey } = await createInConsole(client, "Rotating");
    const { html: before } = await client.page("/console/apps");
    expect(appRow(before, appId)).toMatch(
      /<button[^>]*aria-label="Rotate key of Rotating"[^>]*>\s*Rotate key\s*<\/button>/,
    );
    const html = await followToKey(client, await client.fetch(`/console/apps/${appId}/rotate`, { form: {} }));
    const newKey = shownKey(html)!;
    expect(newKey).toBeTruthy();
    expect(newKey).not.toBe(oldKey);
    expect(shownAppId(html)).toBe(appId);
    expect(html).toContain("Key of Rotating rotated: the previous key no longer works.");
    expect(html).toContain('data-copy="new-api-key"');
    expect(await openStatus(appId, oldKey)).toBe(401);
    expect(await openStatus(appId, newKey)).toBe(200);
    for (let i = 0; i < 2; i++) {
      const { html: reload } = await client.page("/console/apps");
      expect(reload).not.toContain(newKey);
      expect(reload).not.toContain(oldKey);
      expect(reload).not.toContain('id="new-api-key"');
    }
  });

  it("rotating one App leaves the account's other Apps working", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { appId } = await createInConsole(client, "One");
    await client.page("/console/apps");
    expect((await client.fetch(`/console/apps/${appId}/rotate`, { form: {} })).status).toBe(303);
    expect(await openStatus(a.appId, a.apiKey)).toBe(200);
  });
});

describe("console Apps: the new key reaches one page view only (post/redirect/get)", () => {
  it("reloading after Create App creates no second App and shows no key; the sealed key works for its own session only", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/apps");
    const res = await client.fetch("/console/apps", { form: { name: "Once" } });
    const sealed = client.cookies.get("console_new_key");
    expect(sealed).toMatch(/^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(a.appId);
    // Another person's session replaying the cookie gets the plain page: the seal is bound to the session.
    const other = await signedIn((await createAccount()).accountId);
    other.client.cookies.set("console_new_key", sealed!);
    const { html: foreign } = await other.client.page("/console/apps");
    expect(foreign).not.toContain('id="new-api-key"');
    expect(other.client.cookies.has("console_new_key")).toBe(false);
    expect(res.status).toBe(303);
    // A tampered seal shows nothing, even in its own session (and is dropped); the intact one then shows the key once.
    client.cookies.set("console_new_key", sealed!.slice(0, -2) + (sealed!.endsWith("AA") ? "BA" : "AA"));
    expect((await client.page("/console/apps")).html).not.toContain('id="new-api-key"');
    expect(client.cookies.has("console_new_key")).toBe(false);
    client.cookies.set("console_new_key", sealed!);
    const { html } = await client.page("/console/apps");
    expect(shownKey(html)).toBeTruthy();
    expect(html).toContain("App Once created.");
    for (let i = 0; i < 2; i++) {
      const { html: reload } = await client.page("/console/apps");
      expect(reload).not.toContain('id="new-api-key"');
      expect(reload.split(">Once<").length - 1).toBe(1);
    }
  });
});

describe("console Apps: disable", () => {
  it("Disable revokes the App: its key gets 401, the page shows it disabled without actions, and it cannot be rotated back", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const { appId, apiKey } = await createInConsole(client, "Doomed");
    const { html: before } = await client.page("/console/apps");
    expect(appRow(before, appId)).toMatch(/<button[^>]*aria-label="Disable Doomed"[^>]*>\s*Disable\s*<\/button>/);
    const res = await client.fetch(`/console/apps/${appId}/disable`, { form: {} });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console/apps?notice=app-disabled");
    expect(await openStatus(appId, apiKey)).toBe(401);
    const { html } = await client.page("/console/apps?notice=app-disabled");
    const row = appRow(html, appId);
    expect(row).toContain("disabled");
    expect(row).not.toContain("Rotate key");
    expect(row).not.toContain("/disable");
    expect(html).not.toContain(apiKey);
    // Disabled is for good: neither a rotation nor a second disable finds it.
    expect((await client.fetch(`/console/apps/${appId}/rotate`, { form: {} })).status).toBe(404);
    expect((await client.fetch(`/console/apps/${appId}/disable`, { form: {} })).status).toBe(404);
    expect(await openStatus(appId, apiKey)).toBe(401);
    // The account's other App is untouched.
    expect(await openStatus(a.appId, a.apiKey)).toBe(200);
    expect(appRow(html, a.appId)).toContain("active");
  });
});

describe("console Apps: CSRF and isolation", () => {
  it("rotate and disable refuse a missing or wrong token and another origin, and change nothing", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await client.page("/console/apps");
    for (const action of ["rotate", "disable"]) {
      const path = `/console/apps/${a.appId}/${action}`;
      const noToken = await client.fetch(path, { form: {}, csrf: false });
      expect(noToken.status, action).toBe(403);
      expect(((await noToken.json()) as Envelope).error.code).toBe("forbidden");
      expect((await client.fetch(path, { form: { _csrf: "A".repeat(43) }, csrf: false })).status, action).toBe(403);
      expect((await client.fetch(path, { form: {}, headers: { Origin: "https://evil.example" } })).status, action).toBe(
        403,
      );
      const other = await signedIn(a.accountId);
      expect((await client.fetch(path, { form: { _csrf: other.client.csrf }, csrf: false })).status, action).toBe(403);
    }
    expect(await openStatus(a.appId, a.apiKey)).toBe(200);
  });

  it("another account's App id is 404 for rotate and disable, and their key keeps working", async () => {
    const mine = await createAccount();
    const theirs = await createAccount();
    const extra = await createApp(theirs.accountId, "Theirs");
    const { client } = await signedIn(mine.accountId);
    await client.page("/console/apps");
    for (const id of [theirs.appId, extra.appId]) {
      for (const action of ["rotate", "disable"]) {
        const res = await client.fetch(`/console/apps/${id}/${action}`, { form: {} });
        expect(res.status, action).toBe(404);
        expect(((await res.json()) as Envelope).error).toMatchObject({
          code: "not_found",
          message: `App ${id} was not found`,
        });
      }
    }
    expect((await client.fetch("/console/apps/not-an-id/rotate", { form: {} })).status).toBe(404);
    expect(await openStatus(theirs.appId, theirs.apiKey)).toBe(200);
    expect(await openStatus(extra.appId, extra.apiKey)).toBe(200);
    const { html } = await client.page("/console/apps");
    expect(html).not.toContain(theirs.appId);
  });
});
