import { eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, avatarGrants, avatars } from "../../platform/db/schema";
import { invalid, notFound } from "../../platform/http/errors";

const CHUNK = 90; // D1: at most 100 bound parameters per statement

/**
 * Operator: make an Avatar public or not, and/or replace the set of accounts explicitly allowed to use it in
 * videos; returns the access before and after. Unknown Avatar → 404; an allowAccountIds entry naming no
 * account → 400.
 */
export async function setAvatarAccess(
  d1: D1Database,
  avatarIdRaw: string,
  body: { public?: boolean; allowAccountIds?: string[] },
) {
  const db = drizzle(d1);
  const avatarId = avatarIdRaw.toLowerCase();
  const avatar = await db
    .select({ id: avatars.id, accountId: avatars.accountId })
    .from(avatars)
    .where(eq(avatars.id, avatarId))
    .get();
  if (!avatar) throw notFound(`Avatar ${avatarIdRaw} does not exist.`);
  const before = await avatarAccess(d1, avatar);

  const allow = body.allowAccountIds ? [...new Set(body.allowAccountIds.map((id) => id.toLowerCase()))] : undefined;
  if (allow) {
    const found = new Set<string>();
    for (let i = 0; i < allow.length; i += CHUNK) {
      const rows = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(inArray(accounts.id, allow.slice(i, i + CHUNK)))
        .all();
      for (const r of rows) found.add(r.id);
    }
    const unknown = allow.find((id) => !found.has(id));
    if (unknown) throw invalid(`allowAccountIds: account ${unknown} does not exist`);
  }

  const writes = [];
  if (body.public !== undefined)
    writes.push(db.update(avatars).set({ isPublic: body.public }).where(eq(avatars.id, avatarId)));
  if (allow) {
    writes.push(db.delete(avatarGrants).where(eq(avatarGrants.avatarId, avatarId)));
    for (let i = 0; i < allow.length; i += CHUNK / 2) {
      writes.push(
        db.insert(avatarGrants).values(allow.slice(i, i + CHUNK / 2).map((accountId) => ({ avatarId, accountId }))),
      );
    }
  }
  // One batch: the grant set is replaced atomically.
  if (writes.length > 0) await db.batch(writes as [(typeof writes)[number], ...(typeof writes)[number][]]);

  return { before, after: await avatarAccess(d1, avatar) };
}

/** Who may use the Avatar besides its owner: public or not, and the accounts granted it. */
export async function avatarAccess(d1: D1Database, avatar: { id: string; accountId: string }) {
  const db = drizzle(d1);
  const state = await db.select({ isPublic: avatars.isPublic }).from(avatars).where(eq(avatars.id, avatar.id)).get();
  const grants = await db
    .select({ accountId: avatarGrants.accountId })
    .from(avatarGrants)
    .where(eq(avatarGrants.avatarId, avatar.id))
    .all();
  return {
    id: avatar.id,
    accountId: avatar.accountId,
    public: state?.isPublic ?? false,
    allowAccountIds: grants.map((g) => g.accountId).sort(),
  };
}
