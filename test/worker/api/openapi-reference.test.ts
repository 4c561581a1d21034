import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SCALAR_RELEASE } from "../../../workers/api/openapi/scalar-release";

/**
 * /v1/open/docs: Scalar's API reference, everything from this origin. What it looks like and does in a browser
 * (search, request builder, code samples, no CSP violation) is test/e2e/api-reference.test.ts.
 */
const BASE = "http://127.0.0.1:8787";

/** The CSP's directives by name. */
const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );

async function sha256(bytes: ArrayBuffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("API reference page", () => {
  it("loads only this origin's two scripts, with the configuration in a data block and no third-party URL", async () => {
    const res = await SELF.fetch(`${BASE}/v1/open/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/https?:\/\//); // nothing from another site, not even a link
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attrs]) => attrs.trim())).toEqual([
      'type="application/json" id="reference-config"',
      'src="/reference/scalar.js"',
      'src="/reference/reference.js"',
    ]);
    for (const [, attrs, body] of scripts.slice(1)) expect(body, attrs).toBe(""); // no inline code
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    for (const url of urls) expect(url, url).toMatch(/^(\/[^/]|data:)/);
    const config = JSON.parse(scripts[0]![2]!);
    expect(config).toMatchObject({
      url: "/v1/open/openapi.json",
      withDefaultFonts: false,
      telemetry: false,
      persistAuth: false,
      agent: { disabled: true },
      authentication: { preferredSecurityScheme: [["AppId", "ApiKey"]] },
      defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    });
  });

  it("has a CSP that allows this origin's scripts and requests only, no eval, no framing", async () => {
    const res = await SELF.fetch(`${BASE}/v1/open/docs`);
    const csp = directives(res.headers.get("Content-Security-Policy") ?? "");
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
    expect(csp.get("font-src")).toEqual(["'self'", "data:"]);
    // Inline styles only (Scalar adds style elements at run time): no style source from another site.
    expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'none'"]);
    expect([...csp.keys()].sort()).toEqual(
      [
        "base-uri",
        "connect-src",
        "default-src",
        "font-src",
        "form-action",
        "frame-ancestors",
        "img-src",
        "script-src",
        "style-src",
      ].sort(),
    );
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await res.arrayBuffer();
  });

  it("serves the pinned Scalar release and the script that starts it, without signing in", async () => {
    const scalar = await SELF.fetch(`${BASE}/reference/scalar.js`);
    expect(scalar.status).toBe(200);
    expect(scalar.headers.get("Content-Type")).toContain("javascript");
    expect(scalar.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(scalar.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(await sha256(await scalar.arrayBuffer())).toBe(SCALAR_RELEASE.sha256);

    const start = await SELF.fetch(`${BASE}/reference/reference.js`);
    expect(start.status).toBe(200);
    expect(start.headers.get("Content-Type")).toContain("javascript");
    expect(await start.text()).toContain('createApiReference("#reference"');

    const other = await SELF.fetch(`${BASE}/reference/other.js`);
    expect(other.status).toBe(404);
    await other.arrayBuffer();
  });
});
