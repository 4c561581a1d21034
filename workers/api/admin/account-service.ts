import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accounts, type Account } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { invalid, notFound } from "../../platform/http/errors";
import { limiterFor } from "../../accounts/public";
import { assertVideoRule, mergeLimits, serializeAccount } from "./accounts";
import type { CreateAccountBody, PatchAccountBody } from "../schemas/admin";

async function loadAccount(env: Env, accountId: string): Promise<Account> {
  const account = await drizzle(env.DB).select().from(accounts).where(eq(accounts.id, accountId.toLowerCase())).get();
  if (!account) throw notFound(`Account ${accountId} does not exist.`);
  return account;
}

/** The account as the admin API shows it: D1 record plus the unit balance held by its limiter. */
export async function getAccountView(env: Env, accountId: string) {
  const account = await loadAccount(env, accountId);
  return serializeAccount(account, await limiterFor(env, account.id).getBalance());
}

/** Private beta defaults: active, every access flag off, 0 units, Avatar limits at the ceilings. */
export async function createAccount(env: Env, body: CreateAccountBody) {
  const limits = mergeLimits(undefined, body.limits);
  assertVideoRule(body.videoAccess ?? false, limits);
  const id = crypto.randomUUID();
  // The balance lives in the limiter; set it before the account becomes visible.
  if (body.avatarUnits !== undefined) {
    const set = await limiterFor(env, id).setAvatarUnits(body.avatarUnits);
    if (!set.ok) throw invalid(set.message);
  }
  const now = new Date();
  const account: Account = {
    id,
    name: body.name,
    active: body.active ?? true,
    openApiAccess: body.openApiAccess ?? false,
    avatarCreationEnabled: body.avatarCreationEnabled ?? false,
    videoAccess: body.videoAccess ?? false,
    videoCreationEnabled: body.videoCreationEnabled ?? false,
    limits,
    createdAt: now,
    updatedAt: now,
  };
  await drizzle(env.DB).insert(accounts).values(account);
  return serializeAccount(account, await limiterFor(env, id).getBalance());
}

/** Same fields as create, all optional. `avatarUnits` sets the absolute balance (reserved units included). */
export async function patchAccount(env: Env, accountId: string, body: PatchAccountBody) {
  const current = await loadAccount(env, accountId);
  const limits = mergeLimits(current.limits, body.limits);
  const next: Account = {
    ...current,
    name: body.name ?? current.name,
    active: body.active ?? current.active,
    openApiAccess: body.openApiAccess ?? current.openApiAccess,
    avatarCreationEnabled: body.avatarCreationEnabled ?? current.avatarCreationEnabled,
    videoAccess: body.videoAccess ?? current.videoAccess,
    videoCreationEnabled: body.videoCreationEnabled ?? current.videoCreationEnabled,
    limits,
    updatedAt: new Date(),
  };
  assertVideoRule(next.videoAccess, limits);
  const limiter = limiterFor(env, current.id);
  if (body.avatarUnits !== undefined) {
    const set = await limiter.setAvatarUnits(body.avatarUnits);
    if (!set.ok) throw invalid(set.message);
  }
  const { id: _id, createdAt: _created, ...changes } = next;
  await drizzle(env.DB).update(accounts).set(changes).where(eq(accounts.id, current.id));
  return serializeAccount(next, await limiter.getBalance());
}

/** Atomic grant (delta > 0) or withdrawal (delta < 0) of Avatar Creations. */
export async function accountUnits(env: Env, accountId: string, delta: number) {
  const account = await loadAccount(env, accountId);
  const result = await limiterFor(env, account.id).addAvatarUnits(delta);
  if (!result.ok) throw invalid(result.message);
  return serializeAccount(account, result.balance);
}
