import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

/** The pages' scripts and style sheets: files of static/ (scripts/build-assets.ts), served by the Worker. */
const ASSETS = [
  ["/console/assets/console.js", "text/javascript", "data-upload-form"],
  ["/console/assets/console.css", "text/css", ".dropzone"],
  ["/console/live/live.js", "text/javascript", "/console/live/motion-client.js"],
  ["/console/live/live.css", "text/css", "canvas.transparent"],
] as const;

describe("static assets", () => {
  it("are served with the pages' headers and a five-minute public cache, without signing in", async () => {
    for (const [path, type, content] of ASSETS) {
      const res = await SELF.fetch(`http://x${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type"), path).toContain(type);
      expect(res.headers.get("Cache-Control"), path).toBe("public, max-age=300");
      expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(res.headers.get("Referrer-Policy"), path).toBe("same-origin");
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(await res.text(), path).toContain(content);
    }
  });

  it("shadow no route: other paths under /console/assets are the console's (sign-in first)", async () => {
    const res = await SELF.fetch("http://x/console/assets/other.js", { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toContain("/console/sign-in");
  });
});
