import { createMiddleware } from "hono/factory";
import { unauthorized } from "../platform/http/errors";
import type { ConsoleEnv } from "./context";
import { checkCsrf, csrfTokenFor, isUnsafe } from "./csrf";
import { currentSession } from "./sessions";

/**
 * Every signed-in console route: a valid session (else pages redirect to sign-in and the JSON/upload
 * endpoints answer 401), then the CSRF check for state-changing methods.
 */
export const requireSession = createMiddleware<ConsoleEnv>(async (c, next) => {
  const session = await currentSession(c);
  if (!session) {
    if (c.req.method === "GET" && !c.req.path.startsWith("/console/api/")) return c.redirect("/console/sign-in", 303);
    throw unauthorized();
  }
  if (isUnsafe(c.req.method)) await checkCsrf(c, session.id);
  c.set("session", session);
  c.set("csrfToken", await csrfTokenFor(c.env.SIGNING_SECRET, session.id));
  await next();
});

/** Headers for every console response: no framing, no referrer to other sites (invite tokens live in URLs), strict CSP. */
export const securityHeaders = createMiddleware<ConsoleEnv>(async (c, next) => {
  await next();
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "same-origin"); // not "no-referrer": Chromium then sends Origin: null on form posts
  c.header("X-Content-Type-Options", "nosniff");
  if ((c.res.headers.get("Content-Type") ?? "").startsWith("text/html")) {
    c.header("Cache-Control", "no-store");
    c.header(
      "Content-Security-Policy",
      "default-src 'self'; img-src 'self' https: data: blob:; media-src 'self' https: blob:; script-src 'self'; style-src 'self'; " +
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
    );
  }
});
