import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { forbidden } from "../platform/http/errors";
import { sign, verify } from "../platform/crypto/hmac";
import type { ConsoleEnv } from "./context";
import { randomToken } from "../platform/crypto/base64url";
import { cookieOptions } from "./sessions";

/**
 * CSRF defence for every state-changing console request, in two layers (docs/console.md):
 * 1. origin check — `Origin` must be this site (or, without Origin, `Sec-Fetch-Site: same-origin`);
 * 2. a token — HMAC of the session id (signed in) or of a pre-session cookie (sign-in and invite forms),
 *    sent back as the form field `_csrf` or the `X-CSRF-Token` header.
 */
export const CSRF_FIELD = "_csrf";
export const CSRF_HEADER = "X-CSRF-Token";
const PRE_SESSION_COOKIE = "console_pre";

const refuse = (why: string) => forbidden(`Cross-site request refused: ${why}. Reload the page and try again.`);

export const isUnsafe = (method: string) => !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());

/** The origins this console answers on: the request's own, and PUBLIC_BASE_URL's when set. */
function allowedOrigins(c: Context<ConsoleEnv>): string[] {
  const own = new URL(c.req.url).origin;
  const configured = c.env.PUBLIC_BASE_URL?.trim();
  return configured ? [own, new URL(configured).origin] : [own];
}

export function checkOrigin(c: Context<ConsoleEnv>): void {
  const origin = c.req.header("Origin");
  if (origin !== undefined) {
    if (!allowedOrigins(c).includes(origin)) throw refuse(`Origin ${origin.slice(0, 100)} is not this site`);
    return;
  }
  if (c.req.header("Sec-Fetch-Site") !== "same-origin") throw refuse("the request carries no Origin header");
}

export const csrfTokenFor = (secret: string, binding: string) => sign(secret, `console-csrf-v1\n${binding}`);

/** The token a signed-out form must carry; creates the pre-session cookie on first use. */
export async function preSessionCsrf(c: Context<ConsoleEnv>): Promise<string> {
  let nonce = getCookie(c, PRE_SESSION_COOKIE);
  if (!nonce || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
    nonce = randomToken();
    setCookie(c, PRE_SESSION_COOKIE, nonce, cookieOptions(c, 24 * 60 * 60));
  }
  return csrfTokenFor(c.env.SIGNING_SECRET, `pre:${nonce}`);
}

/** The token the request sent: header first, else the urlencoded or multipart form field. */
async function sentToken(c: Context<ConsoleEnv>): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER);
  if (header) return header;
  const type = c.req.header("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data"))
    return undefined;
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const value = body[CSRF_FIELD];
  return typeof value === "string" ? value : undefined;
}

/** Origin + token for a signed-in request (binding = session id) or a signed-out one (binding = pre-session cookie). */
export async function checkCsrf(c: Context<ConsoleEnv>, sessionId: string | null): Promise<void> {
  checkOrigin(c);
  const token = await sentToken(c);
  if (!token) throw refuse(`the ${CSRF_FIELD} token is missing`);
  const nonce = getCookie(c, PRE_SESSION_COOKIE);
  const binding = sessionId ?? (nonce ? `pre:${nonce}` : null);
  if (!binding || !(await verify(c.env.SIGNING_SECRET, `console-csrf-v1\n${binding}`, token)))
    throw refuse(`the ${CSRF_FIELD} token does not match this session`);
}
