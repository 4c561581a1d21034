import { createMiddleware } from "hono/factory";
import { unauthorized } from "../platform/http/errors";
import { pageSecurityHeaders } from "../platform/http/page-headers";
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

/** Headers for every console response (platform/http/page-headers.ts). */
export const securityHeaders = pageSecurityHeaders();
