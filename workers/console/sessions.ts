import { and, eq, lt, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sha256Hex } from "../platform/crypto/digest";
import { randomToken } from "../platform/crypto/base64url";
import { accounts, consoleSessions, consoleUsers } from "../platform/db/schema";
import type { Env } from "../platform/env";
import type { ConsoleEnv, ConsoleSession } from "./context";

/** Sessions end 12 h after the last request, and 7 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often (one D1 write per minute of activity, not per request). */
const TOUCH_EVERY_MS = 60_000;
export const SESSION_COOKIE = "console_session";
export const COOKIE_PATH = "/console";

/** Secure cookies everywhere except plain http on a loopback host (local development and tests). */
export function isPlainLocalhost(url: string): boolean {
  const u = new URL(url);
  return u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
}

export function cookieOptions(c: Context, maxAgeSeconds: number) {
  return {
    path: COOKIE_PATH,
    httpOnly: true,
    secure: !isPlainLocalhost(c.req.url),
    sameSite: "Lax" as const,
    maxAge: maxAgeSeconds,
  };
}

/** A new session for the user; sets the cookie. */
export async function startSession(c: Context<ConsoleEnv>, userId: string, now = Date.now()): Promise<string> {
  const id = randomToken();
  await drizzle(c.env.DB)
    .insert(consoleSessions)
    .values({
      idHash: await sha256Hex(id),
      userId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
    });
  setCookie(c, SESSION_COOKIE, id, cookieOptions(c, SESSION_ABSOLUTE_MS / 1000));
  return id;
}

/** The valid session of the request (idle and absolute limits, active account), or null. */
export async function currentSession(c: Context<ConsoleEnv>, now = Date.now()): Promise<ConsoleSession | null> {
  const id = getCookie(c, SESSION_COOKIE);
  if (!id || id.length > 100) return null;
  const idHash = await sha256Hex(id);
  const db = drizzle(c.env.DB);
  const row = await db
    .select({ session: consoleSessions, user: consoleUsers, account: accounts })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .innerJoin(accounts, eq(accounts.id, consoleUsers.accountId))
    .where(eq(consoleSessions.idHash, idHash))
    .get();
  if (!row) return null;
  const expired = now >= row.session.expiresAt.getTime() || now >= row.session.lastSeenAt.getTime() + SESSION_IDLE_MS;
  if (expired) {
    await db.delete(consoleSessions).where(eq(consoleSessions.idHash, idHash));
    return null;
  }
  if (!row.account.active || !row.user.passwordHash) return null;
  if (now - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db
      .update(consoleSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(consoleSessions.idHash, idHash));
  }
  return { id, user: row.user, account: row.account };
}

/** Sign-out: the session row goes (the cookie alone is worthless afterwards) and the cookie is cleared. */
export async function endSession(c: Context<ConsoleEnv>, id: string): Promise<void> {
  await drizzle(c.env.DB)
    .delete(consoleSessions)
    .where(eq(consoleSessions.idHash, await sha256Hex(id)));
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, secure: !isPlainLocalhost(c.req.url) });
}

/** Password change or reset: every session of the person ends. */
export async function endAllSessions(env: Env, userId: string, now = Date.now()): Promise<void> {
  const db = drizzle(env.DB);
  await db.delete(consoleSessions).where(eq(consoleSessions.userId, userId));
  // Housekeeping while here: drop long-dead sessions of anyone.
  await db
    .delete(consoleSessions)
    .where(
      or(
        lt(consoleSessions.expiresAt, new Date(now)),
        and(lt(consoleSessions.lastSeenAt, new Date(now - SESSION_IDLE_MS))),
      ),
    );
}
