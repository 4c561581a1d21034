import { and, desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, avatars, videoJobs, type Avatar } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { notFound } from "../platform/http/errors";

/** Account-scoped reads of the console. Every query filters by the signed-in person's account. */
const LIST_LIMIT = 100;

export const listAvatars = (env: Env, accountId: string) =>
  drizzle(env.DB)
    .select()
    .from(avatars)
    .where(eq(avatars.accountId, accountId))
    .orderBy(desc(avatars.createdAt), desc(avatars.id))
    .limit(LIST_LIMIT)
    .all();

export const listAvatarJobs = (env: Env, accountId: string, limit = 50) =>
  drizzle(env.DB)
    .select()
    .from(avatarJobs)
    .where(eq(avatarJobs.accountId, accountId))
    .orderBy(desc(avatarJobs.createdAt), desc(avatarJobs.id))
    .limit(limit)
    .all();

export const listVideoJobs = (env: Env, accountId: string, limit = 50) =>
  drizzle(env.DB)
    .select()
    .from(videoJobs)
    .where(eq(videoJobs.accountId, accountId))
    .orderBy(desc(videoJobs.createdAt), desc(videoJobs.id))
    .limit(limit)
    .all();

/** The account's Avatar; another account's id is a 404 exactly like an unknown one. */
export async function ownAvatar(env: Env, accountId: string, avatarId: string): Promise<Avatar> {
  const avatar = /^[0-9a-f-]{36}$/.test(avatarId)
    ? await drizzle(env.DB)
        .select()
        .from(avatars)
        .where(and(eq(avatars.id, avatarId), eq(avatars.accountId, accountId)))
        .get()
    : undefined;
  if (!avatar) throw notFound(`Avatar ${avatarId.slice(0, 36)} was not found`);
  return avatar;
}

export async function ownVideoJob(env: Env, accountId: string, jobId: string) {
  const job = /^[0-9a-f-]{36}$/.test(jobId)
    ? await drizzle(env.DB)
        .select()
        .from(videoJobs)
        .where(and(eq(videoJobs.id, jobId), eq(videoJobs.accountId, accountId)))
        .get()
    : undefined;
  if (!job) throw notFound(`Video job ${jobId.slice(0, 36)} was not found`);
  return job;
}
