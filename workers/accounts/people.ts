import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomToken } from "../platform/crypto/base64url";
import { sha256Hex } from "../platform/crypto/digest";
import {
  accounts,
  consoleInvites,
  consoleSessions,
  consoleUsers,
  PERSON_ROLES,
  type PersonRole,
} from "../platform/db/schema";
import type { Env } from "../platform/env";
import { conflict, invalid, notFound } from "../platform/http/errors";

/** Invite links are valid 24 h and work once. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
const EMAIL_RE = /^[^\s@<>"()[\],;:]+@[^\s@<>"()[\],;:]+\.[^\s@<>"()[\],;:]+$/;

/** Emails are compared lowercased and trimmed; a malformed one is refused with the rule. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_RE.test(email))
    throw invalid("email must be an email address (name@domain), at most 254 characters");
  return email;
}

export const findUserByEmail = (env: Env, email: string) =>
  drizzle(env.DB).select().from(consoleUsers).where(eq(consoleUsers.email, email)).get();

/** A role named in a request: `owner` or `member`, else 400 naming the field. */
export function parseRole(raw: unknown, field = "role"): PersonRole {
  if (typeof raw === "string" && (PERSON_ROLES as readonly string[]).includes(raw)) return raw as PersonRole;
  throw invalid(`${field} must be one of ${PERSON_ROLES.join(", ")}`);
}

/**
 * Invite: a one-time token for `email` into `accountId`, naming the role it gives (`role` omitted: the
 * account's first person becomes its owner, a later one a member, and a person already in the account keeps
 * theirs). Inviting a person already in the account issues a fresh link (a password reset); an email that
 * belongs to another account is a 409.
 */
export async function createInvite(
  env: Env,
  accountId: string,
  rawEmail: string,
  role: PersonRole | null = null,
  now = Date.now(),
) {
  const email = normalizeEmail(rawEmail);
  const db = drizzle(env.DB);
  const account = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, accountId.toLowerCase()))
    .get();
  if (!account) throw notFound(`Account ${accountId} does not exist.`);
  const existing = await findUserByEmail(env, email);
  if (existing && existing.accountId !== account.id) {
    throw conflict(`email ${email} already belongs to a person of another account; one email signs in to one account`);
  }
  const token = randomToken();
  const expiresAt = new Date(now + INVITE_TTL_MS);
  await db.insert(consoleInvites).values({
    tokenHash: await sha256Hex(token),
    accountId: account.id,
    email,
    role,
    createdAt: new Date(now),
    expiresAt,
  });
  return { token, email, accountId: account.id, role, expiresAt };
}

/** The account's people (no password hashes) and its pending invites (no tokens), oldest first. */
export async function listPeople(env: Env, accountId: string, now = Date.now()) {
  const db = drizzle(env.DB);
  const [people, invites] = await Promise.all([
    db
      .select({
        id: consoleUsers.id,
        email: consoleUsers.email,
        role: consoleUsers.role,
        createdAt: consoleUsers.createdAt,
      })
      .from(consoleUsers)
      .where(eq(consoleUsers.accountId, accountId))
      .orderBy(asc(consoleUsers.createdAt))
      .all(),
    db
      .select({
        email: consoleInvites.email,
        role: consoleInvites.role,
        createdAt: consoleInvites.createdAt,
        expiresAt: consoleInvites.expiresAt,
      })
      .from(consoleInvites)
      .where(pendingInvites(accountId, now))
      .orderBy(asc(consoleInvites.createdAt))
      .all(),
  ]);
  return { people, invites };
}

const pendingInvites = (accountId: string, now: number, email?: string) =>
  and(
    eq(consoleInvites.accountId, accountId),
    isNull(consoleInvites.usedAt),
    gt(consoleInvites.expiresAt, new Date(now)),
    email === undefined ? undefined : eq(consoleInvites.email, email),
  );

export const findPerson = (env: Env, userId: string) =>
  drizzle(env.DB).select().from(consoleUsers).where(eq(consoleUsers.id, userId.toLowerCase())).get();

/** Ends every session of a person: their cookies stop working at the next request. Returns how many ended. */
export async function endSessionsOf(env: Env, userId: string): Promise<number> {
  const ended = await drizzle(env.DB)
    .delete(consoleSessions)
    .where(eq(consoleSessions.userId, userId))
    .returning({ id: consoleSessions.idHash })
    .all();
  return ended.length;
}

/** Revokes the account's pending invites (of one email, or all): their links stop working. Returns how many. */
export async function revokeInvites(env: Env, accountId: string, email?: string, now = Date.now()): Promise<number> {
  const revoked = await drizzle(env.DB)
    .delete(consoleInvites)
    .where(pendingInvites(accountId, now, email === undefined ? undefined : normalizeEmail(email)))
    .returning({ email: consoleInvites.email })
    .all();
  return revoked.length;
}

/**
 * Removes a person: their sessions end (the cookie fails at the next request), their pending invites are
 * revoked and the person is deleted (jobs they made keep their user id). Returns what was removed.
 */
export async function removePerson(env: Env, userId: string, now = Date.now()) {
  const person = await findPerson(env, userId);
  if (!person) throw notFound(`Person ${userId} does not exist.`);
  const sessionsEnded = await endSessionsOf(env, person.id);
  const invitesRevoked = await revokeInvites(env, person.accountId, person.email, now);
  await drizzle(env.DB).delete(consoleUsers).where(eq(consoleUsers.id, person.id));
  return {
    person: { id: person.id, accountId: person.accountId, email: person.email, role: person.role },
    sessionsEnded,
    invitesRevoked,
  };
}

/** Changes a person's role; returns the person before and after. */
export async function setRole(env: Env, userId: string, role: PersonRole) {
  const person = await findPerson(env, userId);
  if (!person) throw notFound(`Person ${userId} does not exist.`);
  await drizzle(env.DB).update(consoleUsers).set({ role }).where(eq(consoleUsers.id, person.id));
  return {
    before: person.role,
    after: role,
    person: { id: person.id, accountId: person.accountId, email: person.email, role },
  };
}
