import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../fixtures/portraits/derive";
import { api, baseUrl, createAccount, inviteUser, mediaUrl, publish, type TestAccount } from "./helpers";

// Console polish in real Chromium (issue 23, point 6): portrait preview, job status changed in place (no
// reload: a half-filled form survives), aria-live job lists paged with "Load older", part uploads retried and
// resumed, and the Apps page on a 390 px wide phone.

const work = mkdtempSync(join(tmpdir(), "e2e-console-polish-"));
let browser: Browser;
let page: Page;
let account: TestAccount;
const problems: string[] = [];

/** A console person of the account, signed in on `page`. */
async function signIn(p: Page) {
  const email = `polish-${Date.now()}@example.com`;
  // Owners: these cases manage Apps, which members cannot.
  const cli = inviteUser(account.accountId, email, "owner");
  expect(cli.status, cli.stderr).toBe(0);
  await p.goto(cli.stdout.trim());
  await p.getByLabel("Password", { exact: true }).fill("a long console passphrase");
  await p.getByLabel("Confirm password").fill("a long console passphrase");
  await p.getByRole("button", { name: "Set password" }).click();
  await p.waitForURL(/\/console\/avatars/);
}

/** CONSOLE_SCREENSHOTS=<dir> saves what each case shows there (as test/e2e/console.test.ts does). */
const shoot = (p: Page, name: string) =>
  process.env.CONSOLE_SCREENSHOTS
    ? p.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, `console-${name}.png`), fullPage: true })
    : undefined;

/** A marker on window: gone after any navigation or reload. */
const mark = (p: Page) => p.evaluate(() => Object.assign(window, { __noReload: true }));
const stillMarked = (p: Page) => p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

beforeAll(async () => {
  account = await createAccount(5);
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => d.accept());
  await signIn(page);
});

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("console polish", () => {
  it("shows a preview of the chosen portrait before Create Avatar", async () => {
    const portrait = join(work, "portrait.jpg");
    writeFileSync(portrait, fixture("single-camera"));
    const preview = page.locator("img.portrait-preview");
    await expect(preview.isHidden()).resolves.toBe(true);
    await page.getByLabel("Portrait photo").setInputFiles(portrait);
    await preview.waitFor({ state: "visible" });
    await page.waitForFunction(
      () => (document.querySelector<HTMLImageElement>("img.portrait-preview")?.naturalWidth ?? 0) > 0,
    );
    await expect(preview.getAttribute("alt")).resolves.toBe("Preview of the chosen portrait");
    await shoot(page, "avatars-preview");
  });

  it("changes a finishing job in place: no reload, the half-filled form keeps its value, the new Avatar appears", async () => {
    const created = await api(account, "/avatars", {
      imageUrl: publish("polish-portrait.jpg", fixture("single-camera")),
      name: "Grace Hopper",
    });
    expect(created.status).toBe(200);
    await page.goto(`${baseUrl}/console/avatars`);
    const list = page.locator("ul.jobs");
    await expect(list.getAttribute("aria-live")).resolves.toBe("polite");
    await mark(page);
    await page.getByLabel("Name", { exact: true }).fill("Half-typed name");
    await page.locator("a.tile", { hasText: "Grace Hopper" }).waitFor({ timeout: 150_000 });
    await expect(list.locator("[data-job-id] .status").first().textContent()).resolves.toBe("succeeded");
    expect(await stillMarked(page)).toBe(true);
    await expect(page.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("Half-typed name");
  });

  it('pages job lists with "Load older", appended in place', async () => {
    for (const n of [1, 2]) {
      const res = await api(account, "/avatars", {
        imageUrl: `${mediaUrl}/status/404?n=${n}`,
        name: `Unreachable ${n}`,
      });
      expect(res.status).toBe(200);
    }
    await page.goto(`${baseUrl}/console/avatars?pageSize=1`);
    const items = page.locator("ul.jobs > li[data-job-id]");
    await expect(items.count()).resolves.toBe(1);
    await mark(page);
    await page.getByRole("link", { name: "Load older" }).click();
    await page
      .waitForFunction(() => document.querySelectorAll("ul.jobs > li[data-job-id]").length === 2, undefined, {
        timeout: 10_000,
      })
      .catch(async (err) => {
        throw new Error(
          `${err.message}\n${page.url()}\n${(await page.locator("section.panel").nth(1).innerHTML()).slice(0, 3000)}`,
        );
      });
    await expect(page.getByRole("link", { name: "Load older" }).count()).resolves.toBe(0);
    expect(await stillMarked(page)).toBe(true);
    await shoot(page, "avatars-load-older");
    const ids = await items.evaluateAll((els) => els.map((el) => el.getAttribute("data-job-id")));
    expect(new Set(ids).size).toBe(2);
  });

  it("retries a failed part with backoff and resumes an interrupted upload from the part it stopped at", async () => {
    const avatarId = (await api(account, "/avatars")).body.avatars[0]!.id;
    // 9 MiB: two parts of the console's 8 MiB. A WAV header and silence (the upload is what is tested).
    const audio = Buffer.alloc(9 * 1024 * 1024);
    audio.write("RIFF", 0);
    audio.write("WAVEfmt ", 8);
    const file = join(work, "long-silence.wav");
    writeFileSync(file, audio);
    const puts: string[] = [];
    let failFirst = true;
    let interrupted = true;
    await page.route("**/console/api/uploads/*/parts/*", async (route) => {
      const part = route.request().url().split("/").pop()!;
      puts.push(part);
      if (part === "1" && failFirst) {
        failFirst = false;
        return route.fulfill({
          status: 503,
          contentType: "application/json",
          body: '{"error":{"code":"service_unavailable","message":"busy"}}',
        });
      }
      if (part === "2" && interrupted) return route.abort("connectionreset");
      return route.continue();
    });
    // The video itself is not the point here: the form's final POST is answered without making a job.
    let submitted = 0;
    let completes = 0;
    page.on("request", (r) => void (r.url().endsWith("/complete") && completes++));
    await page.route("**/console/videos", (route) => {
      if (route.request().method() !== "POST") return route.continue();
      submitted++;
      return route.fulfill({ status: 200, contentType: "text/html", body: "<p>form-received-by-test</p>" });
    });
    await page.goto(`${baseUrl}/console/videos`);
    await page.getByLabel("Avatar", { exact: true }).selectOption(avatarId);
    await page.getByLabel("Audio file").setInputFiles(file);
    await page.getByRole("button", { name: "Create video" }).click();
    // Part 1: a 503 then stored (retried); part 2: cut five times, then the upload stops and says how to resume.
    await page.locator("[data-upload-status][role=alert]").waitFor({ timeout: 60_000 });
    await shoot(page, "videos-upload-interrupted");
    await expect(page.locator("[data-upload-status]").textContent()).resolves.toBe(
      "The connection was lost during the upload. Send the form again with the same file to resume the upload.",
    );
    expect(puts.filter((p) => p === "1")).toEqual(["1", "1"]);
    expect(puts.filter((p) => p === "2")).toHaveLength(5);

    interrupted = false;
    puts.length = 0;
    await page.reload(); // even a reload: the stored parts are remembered
    await page.getByLabel("Avatar", { exact: true }).selectOption(avatarId);
    await page.getByLabel("Audio file").setInputFiles(file);
    await page.getByRole("button", { name: "Create video" }).click();
    await page.waitForFunction(() => document.body.textContent === "form-received-by-test", undefined, {
      timeout: 60_000,
    });
    expect(puts).toEqual(["2"]);
    expect(completes).toBe(1);
    expect(submitted).toBe(1);
    await page.unrouteAll();
  });

  it("the Apps page works on a 390 px wide phone: Rotate key and Disable are in view and work", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    phone.on("dialog", (d) => d.accept());
    await signIn(phone);
    await phone.goto(`${baseUrl}/console/apps`);
    await phone.getByLabel("Name").fill("Phone backend");
    await phone.getByRole("button", { name: "Create App" }).click();
    await phone.locator("#new-api-key").waitFor();
    for (const name of ["Rotate key of Phone backend", "Disable Phone backend"]) {
      const box = await phone.getByRole("button", { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
    }
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(phone, "apps-phone-cards");
    await phone.getByRole("button", { name: "Rotate key of Phone backend" }).click();
    await phone.locator("#new-api-key").waitFor();
    await phone.getByRole("button", { name: "Disable Phone backend" }).click();
    await phone.getByText("disabled").first().waitFor();
    await phone.close();
    expect(problems).toEqual([]);
  });
});
