import { and, eq, gt, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sha256Hex } from "../platform/crypto/digest";
import { consoleInvites, consoleUsers, type ConsoleUser } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { hashPassword } from "./password";
import { endAllSessions } from "./sessions";
import { findUserByEmail } from "../accounts/public";

/** The invite behind a link, if it is still usable (unused, unexpired). */
export async function findInvite(env: Env, token: string, now = Date.now()) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return drizzle(env.DB)
    .select()
    .from(consoleInvites)
    .where(
      and(
        eq(consoleInvites.tokenHash, await sha256Hex(token)),
        isNull(consoleInvites.usedAt),
        gt(consoleInvites.expiresAt, new Date(now)),
      ),
    )
    .get();
}

/**
 * Accepts an invite: marks it used (atomically: a second use finds nothing), creates the person or sets
 * the new password of an existing one, and ends every earlier session of that person.
 */
export async function acceptInvite(
  env: Env,
  token: string,
  password: string,
  now = Date.now(),
): Promise<ConsoleUser | null> {
  const db = drizzle(env.DB);
  const claimed = await db
    .update(consoleInvites)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(consoleInvites.tokenHash, await sha256Hex(token)),
        isNull(consoleInvites.usedAt),
        gt(consoleInvites.expiresAt, new Date(now)),
      ),
    )
    .returning()
    .get();
  if (!claimed) return null;
  const passwordHash = await hashPassword(password);
  const existing = await findUserByEmail(env, claimed.email);
  if (existing) {
    if (existing.accountId !== claimed.accountId) return null;
    await setPassword(env, existing.id, passwordHash, now);
    const role = claimed.role ?? existing.role;
    if (role !== existing.role) await db.update(consoleUsers).set({ role }).where(eq(consoleUsers.id, existing.id));
    return { ...existing, passwordHash, role };
  }
  // The account's first person is its owner, whatever the invite says.
  const anyone = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.accountId, claimed.accountId))
    .get();
  const user: ConsoleUser = {
    id: crypto.randomUUID(),
    accountId: claimed.accountId,
    email: claimed.email,
    passwordHash,
    role: anyone ? (claimed.role ?? "member") : "owner",
    createdAt: new Date(now),
    passwordChangedAt: new Date(now),
  };
  await db.insert(consoleUsers).values(user);
  return user;
}

/** Stores a new password hash and revokes every session of the person. */
export async function setPassword(env: Env, userId: string, passwordHash: string, now = Date.now()): Promise<void> {
  await drizzle(env.DB)
    .update(consoleUsers)
    .set({ passwordHash, passwordChangedAt: new Date(now) })
    .where(eq(consoleUsers.id, userId));
  await endAllSessions(env, userId, now);
}
