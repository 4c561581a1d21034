import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomToken } from "../platform/crypto/base64url";
import { sha256Hex } from "../platform/crypto/digest";
import { accounts, consoleInvites, consoleUsers } from "../platform/db/schema";
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

/**
 * Operator invite: a one-time token for `email` into `accountId`. Inviting a person already in the
 * account issues a fresh link (a password reset); an email that belongs to another account is a 409.
 */
export async function createInvite(env: Env, accountId: string, rawEmail: string, now = Date.now()) {
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
  await db
    .insert(consoleInvites)
    .values({ tokenHash: await sha256Hex(token), accountId: account.id, email, createdAt: new Date(now), expiresAt });
  return { token, email, accountId: account.id, expiresAt };
}
