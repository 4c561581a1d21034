import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { motionAccount } from "../helpers/motion";

/**
 * A page on another site shows a live Avatar: it imports /v1/motion/motion-client.js (CORS: any origin) and
 * connects with a session token its backend minted. The routes that take an API key give other origins
 * nothing: a browser there can neither preflight nor read them.
 */
const OTHER_SITE = "https://shop.example.org";

describe("motion-client for other origins", () => {
  it("serves the library as a module any origin can load", async () => {
    const res = await SELF.fetch("http://x/v1/motion/motion-client.js", { headers: { Origin: OTHER_SITE } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    const js = await res.text();
    expect(js).toContain("motion.v1");
    expect(js).toMatch(/export\s*\{[^}]*LiveAvatar/);
    // The demo page's copy is the same file (same-origin, under the page headers).
    expect(await (await SELF.fetch("http://x/console/live/motion-client.js")).text()).toBe(js);
  });

  it("gives no CORS to what takes an API key: minting session tokens and the demo page's session", async () => {
    const a = await motionAccount();
    for (const path of ["/v1/console/session-tokens", "/console/live/session"]) {
      const preflight = await SELF.fetch(`http://x${path}`, {
        method: "OPTIONS",
        headers: {
          Origin: OTHER_SITE,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "x-api-key, x-app-id, content-type",
        },
      });
      expect(preflight.headers.get("Access-Control-Allow-Origin"), path).toBeNull();
      expect(preflight.headers.get("Access-Control-Allow-Headers"), path).toBeNull();
      await preflight.arrayBuffer();

      const post = await SELF.fetch(`http://x${path}`, {
        method: "POST",
        headers: { ...a.headers, Origin: OTHER_SITE, "Content-Type": "application/json" },
        body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 60 }),
      });
      expect(post.status, path).toBe(200); // a backend (no Origin rules) gets its token…
      expect(post.headers.get("Access-Control-Allow-Origin"), path).toBeNull(); // …a browser elsewhere cannot read it
      await post.arrayBuffer();
    }
  });
});
