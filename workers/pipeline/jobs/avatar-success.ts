import type { AvatarJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { avatarKeys } from "../../platform/storage/keys";

/**
 * processing → succeeded and the Avatar row, in one D1 transaction (batch). The Avatar is inserted only
 * if the job is now succeeded with this avatarId, and its id is the job's derived id (primary key): a
 * replayed success, a second attempt or a stale run can never add a second Avatar or an orphan one.
 * origin: a job made by a person in the web console has a user_id (and no app_id).
 */
export async function succeedAvatar(
  env: Pick<Env, "DB">,
  job: AvatarJob,
  avatarId: string,
  now: number,
): Promise<boolean> {
  const keys = avatarKeys(avatarId);
  const [update] = await env.DB.batch([
    env.DB.prepare(
      `update avatar_jobs set status = 'succeeded', avatar_id = ?1, heartbeat_at = null, updated_at = ?2, completed_at = ?2
       where id = ?3 and status = 'processing' and attempt = ?4`,
    ).bind(avatarId, now, job.id, job.attempt),
    env.DB.prepare(
      `insert into avatars (id, account_id, name, origin, is_public, portrait_key, rig_key, cover_key, background_key, created_at, updated_at)
       select ?1, account_id, name, case when user_id is not null then 'console' else 'api' end, 0, ?2, ?3, ?4, null, ?5, ?5 from avatar_jobs
       where id = ?6 and status = 'succeeded' and avatar_id = ?1
       on conflict (id) do nothing`,
    ).bind(avatarId, keys.portrait, keys.rig, keys.cover, now, job.id),
  ]);
  return (update.meta.changes ?? 0) > 0;
}
