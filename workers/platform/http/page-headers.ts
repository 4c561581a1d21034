import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

export interface PageHeaderOptions {
  /** Widens script-src for a page that needs more (the live page's AudioWorklet is a blob). */
  scriptSrc?: string;
  /** The page may ask for the microphone (the live page only); every other page may not. */
  microphone?: boolean;
}

/**
 * Headers for every HTML page the Worker serves (the console, /console/live): no framing, no referrer to other
 * sites (invite tokens live in URLs), no sniffing, its own browsing-context group (COOP), no powerful features
 * but the microphone where a page needs it (Permissions-Policy), HTTPS only outside development (HSTS), and for
 * HTML no caching (a page may show an API key) and a strict CSP. A page's own, narrower middleware runs inside
 * the console's and sets these first: what is already set is kept.
 */
export const pageSecurityHeaders = (options: PageHeaderOptions = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const set = (name: string, value: string) => {
      if (!c.res.headers.has(name)) c.header(name, value);
    };
    set("X-Frame-Options", "DENY");
    set("Referrer-Policy", "same-origin"); // not "no-referrer": Chromium then sends Origin: null on form posts
    set("X-Content-Type-Options", "nosniff");
    set("Cross-Origin-Opener-Policy", "same-origin");
    set(
      "Permissions-Policy",
      `microphone=${options.microphone ? "(self)" : "()"}, camera=(), geolocation=(), payment=(), usb=(), display-capture=()`,
    );
    if (c.env.ENVIRONMENT !== "development") set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    if ((c.res.headers.get("Content-Type") ?? "").startsWith("text/html")) {
      set("Cache-Control", "no-store");
      set(
        "Content-Security-Policy",
        `default-src 'self'; img-src 'self' https: data: blob:; media-src 'self' https: blob:; script-src ${options.scriptSrc ?? "'self'"}; style-src 'self'; ` +
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
      );
    }
  });
