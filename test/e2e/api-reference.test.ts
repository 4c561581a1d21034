/**
 * /v1/open/docs in Chromium, as a developer meets it: Scalar's reference loads from the service's own origin
 * without a CSP violation, finds operations by search, shows code samples in curl, Node and Python, and its
 * request builder calls the API with the X-App-ID and X-API-Key typed in.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createAccount } from "./helpers";

interface Violation {
  directive: string;
  blocked: string;
}
declare global {
  interface Window {
    __violations: Violation[];
  }
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** The reference at `hash`, loaded, with every request's origin, page error and CSP violation recorded. */
async function openReference(hash = "") {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const origins = new Set<string>();
  const errors: string[] = [];
  page.on("request", (r) => origins.add(new URL(r.url()).origin));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI }),
    );
  });
  await page.goto(`${baseUrl}/v1/open/docs${hash}`);
  await page.getByRole("heading", { name: "Avatar and Video Open API" }).waitFor({ timeout: 30_000 });
  return { page, origins, errors };
}

/** The operation's section (Scalar's ids end with tag/<tag>/<METHOD><path>). */
const operation = (page: Page, id: string) => page.locator(`section[id$="tag/${id}"]`);

describe("/v1/open/docs in Chromium", () => {
  it("renders Scalar's reference from this origin only, with no CSP violation and no error", async () => {
    const { page, origins, errors } = await openReference();
    await page.getByText("Download OpenAPI Document").waitFor();
    expect([...origins].filter((o) => o !== "null")).toEqual([new URL(baseUrl).origin]);
    expect(errors).toEqual([]);
    // The one refusal: Scalar's bundled zod probes `Function("")` once and falls back to not compiling.
    const violations = await page.evaluate(() => window.__violations);
    expect(violations.filter((v) => !(v.directive === "script-src" && v.blocked === "eval"))).toEqual([]);
    await page.close();
  });

  it("finds an operation by search", async () => {
    const { page } = await openReference();
    await page.keyboard.press("Control+k");
    await page.keyboard.type("session token");
    await expect
      .poll(async () => (await page.getByRole("dialog").textContent()) ?? "")
      .toContain("Issue a short-lived session token for a motion service connection");
    await page.close();
  });

  it("shows code samples in curl, Node and Python, the SDKs' among them", async () => {
    const { page } = await openReference("#tag/videos/POST/v1/open/videos");
    const create = operation(page, "videos/POST/v1/open/videos");
    await create.getByText("Shell Curl").click();
    const menu = page.getByRole("listbox");
    for (const label of ["Node SDK", "Python SDK", "Fetch", "Requests", "Curl"]) {
      await expect.poll(() => menu.getByText(label, { exact: true }).count()).toBeGreaterThan(0);
    }
    await menu.getByText("Python SDK", { exact: true }).click();
    await expect.poll(async () => (await create.textContent()) ?? "").toContain("av.videos.create(avatar_id=");
    await page.close();
  });

  it("sends the request builder's X-App-ID and X-API-Key to the API and shows the answer", async () => {
    const account = await createAccount(1);
    const { page } = await openReference("#tag/avatars/GET/v1/open/avatars");
    await operation(page, "avatars/GET/v1/open/avatars").getByRole("button", { name: "Test Request" }).click();
    const client = page.getByRole("dialog");
    // The two security schemes' value fields, in the document's order (AppId, ApiKey).
    const values = client.locator("input[id^=scalar-client]");
    await values.nth(0).fill(account.headers["X-App-ID"]!);
    await values.nth(1).fill(account.headers["X-API-Key"]!);
    const sent = page.waitForRequest((r) => r.url().startsWith(`${baseUrl}/v1/open/avatars`));
    const answered = page.waitForResponse((r) => r.url().startsWith(`${baseUrl}/v1/open/avatars`));
    await client.getByRole("button", { name: /^Send/ }).first().click();
    const headers = (await sent).headers();
    expect(headers["x-app-id"]).toBe(account.headers["X-App-ID"]);
    expect(headers["x-api-key"]).toBe(account.headers["X-API-Key"]);
    expect((await answered).status()).toBe(200);
    await expect.poll(async () => (await client.textContent()) ?? "").toContain('"avatars"');
    await page.close();
  });
});
