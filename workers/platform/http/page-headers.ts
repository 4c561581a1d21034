import { createMiddleware } from "hono/factory";

/**
 * Headers for every HTML page the Worker serves (the console, /console/live): no framing, no referrer to other
 * sites (invite tokens live in URLs), no sniffing, and for HTML no caching (a page may show an API key) and a
 * strict CSP. `scriptSrc` widens script-src for a page that needs more (the live page's AudioWorklet is a blob).
 */
export const pageSecurityHeaders = (scriptSrc = "'self'") =>
  createMiddleware(async (c, next) => {
    await next();
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "same-origin"); // not "no-referrer": Chromium then sends Origin: null on form posts
    c.header("X-Content-Type-Options", "nosniff");
    if ((c.res.headers.get("Content-Type") ?? "").startsWith("text/html")) {
      c.header("Cache-Control", "no-store");
      c.header(
        "Content-Security-Policy",
        `default-src 'self'; img-src 'self' https: data: blob:; media-src 'self' https: blob:; script-src ${scriptSrc}; style-src 'self'; ` +
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
      );
    }
  });
