/**
 * A live Avatar on another site's page, as packages/motion-client's README shows it: the site's backend mints a
 * session token with the SDK, its page (served here from a second origin, under a strict CSP of its own)
 * imports /v1/motion/motion-client.js from the service and connects with the token; the Avatar is drawn,
 * moving with the audio file the page plays. The route that mints tokens stays closed to that page.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AvatarVideo } from "../../client/src/index.js";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, speechLike, synthSpeech } from "../renderer/helpers/media-audio";
import { accountWithAvatar, baseUrl, motionChromium } from "./helpers";

/** What the embedding page exposes to the test. */
interface EmbedHandle {
  framesReceived: number;
  avatar?: { mouthBox: { x: number; y: number; width: number; height: number }; canvas: HTMLCanvasElement };
}
declare global {
  interface Window {
    startLive(token: string, avatarId: string): Promise<void>;
    live?: EmbedHandle;
    statuses: { state: string }[];
    violations: string[];
  }
}

const service = new URL(baseUrl);
const wsOrigin = `ws://${service.host}`;

/** The other site: its page, its script (which imports the library from the service) and an audio file. */
function embeddingSite(wav: Buffer): Server {
  const files: Record<string, [string, string | Buffer]> = {
    "/": [
      "text/html",
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>' +
        '<canvas id="avatar" width="320" height="320"></canvas><script type="module" src="/embed.js"></script></body></html>',
    ],
    "/embed.js": [
      "text/javascript",
      `import { LiveAvatar } from "${baseUrl}/v1/motion/motion-client.js";
window.statuses = [];
window.startLive = async (token, avatarId) => {
  const audio = await (await fetch("/speech.wav")).blob();
  window.live = await LiveAvatar.connect({
    serviceUrl: "${baseUrl}", token, avatarId,
    canvas: document.getElementById("avatar"),
    onStatus: (s) => window.statuses.push(s),
  });
  await window.live.playFile(audio);
};`,
    ],
    "/speech.wav": ["audio/wav", wav],
  };
  // The CSP the README asks of an embedding page: the service's origin for the module, its requests and
  // images, and blob: for the audio worklet; nothing inline.
  const csp =
    `default-src 'self'; script-src 'self' ${service.origin} blob:; connect-src 'self' ${service.origin} ${wsOrigin}; ` +
    `img-src 'self' ${service.origin} data: blob:`;
  return createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": file[0], "Content-Security-Policy": csp }).end(file[1]);
  });
}

let dir: string;
let browser: Browser;
let site: Server;
let siteUrl: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "motion-embed-"));
  await encodeAudio(synthSpeech(speechLike(6, 5), 48_000), 48_000, join(dir, "speech.wav"));
  site = embeddingSite(readFileSync(join(dir, "speech.wav")));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch(motionChromium());
});
afterAll(async () => {
  await browser?.close();
  site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a live Avatar embedded on another origin", () => {
  it("loads motion-client from the service, connects with a token the backend minted, and draws the Avatar speaking", async () => {
    const { account, avatarId } = await accountWithAvatar("embed-portrait.jpg", fixture("single-camera"));

    // The site's backend: the SDK with the App's credentials mints a token for one connection.
    const av = new AvatarVideo({
      baseUrl,
      appId: account.headers["X-App-ID"],
      apiKey: account.headers["X-API-Key"],
      maxRetries: 0,
    });
    const { sessionToken } = await av.sessionTokens.create({ ttlSeconds: 120 });

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.addInitScript(() => {
      window.violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await page.goto(siteUrl);
    await page.waitForFunction(() => typeof window.startLive === "function");
    expect(new URL(page.url()).origin).not.toBe(service.origin);

    await page.evaluate(([token, avatarId]) => window.startLive(token!, avatarId!), [sessionToken, avatarId]);
    await page.waitForFunction(() => window.live?.avatar && window.live.framesReceived > 10, undefined, {
      timeout: 20_000,
    });

    // The canvas shows the portrait, and its mouth region changes from sample to sample while the file plays.
    const mouths: number[][] = [];
    for (let i = 0; i < 20; i++) {
      mouths.push(
        await page.evaluate(() => {
          const { canvas, mouthBox: box } = window.live!.avatar!;
          const c = document.createElement("canvas");
          c.width = box.width;
          c.height = box.height;
          const ctx = c.getContext("2d")!;
          ctx.drawImage(canvas, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
          const d = ctx.getImageData(0, 0, box.width, box.height).data;
          const gray: number[] = [];
          for (let p = 0; p < d.length; p += 4) gray.push(Math.round((d[p]! + d[p + 1]! + d[p + 2]!) / 3));
          return gray;
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    const spread = (g: number[]) => Math.max(...g) - Math.min(...g);
    expect(Math.min(...mouths.map(spread)), "a drawn face, not a blank canvas").toBeGreaterThan(40);
    const changes = mouths
      .slice(1)
      .map((g, i) => g.reduce((s, v, j) => s + Math.abs(v - mouths[i]![j]!), 0) / g.length);
    expect(Math.max(...changes), "the mouth moves with the audio").toBeGreaterThan(2);

    const states = await page.evaluate(() => window.statuses.map((s) => s.state));
    expect(states.slice(0, 3)).toEqual(["connecting", "open", "streaming"]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.violations)).toEqual([]);

    // The page cannot mint tokens itself: the key's route answers no other origin.
    const refused = await page.evaluate(async (url) => {
      try {
        await fetch(`${url}/v1/console/session-tokens`, {
          method: "POST",
          headers: { "X-API-Key": "anything", "Content-Type": "application/json" },
          body: "{}",
        });
        return "read";
      } catch (e) {
        return String(e);
      }
    }, baseUrl);
    expect(refused).toContain("TypeError");
    await page.close();
  }, 240_000);
});
