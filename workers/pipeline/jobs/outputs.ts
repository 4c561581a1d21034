import { eq } from "drizzle-orm";
import { avatars } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { avatarKeys, videoOutputKeys } from "../../platform/storage/keys";
import { avatarIdForJob } from "./avatar-id";
import { db } from "./store";
import type { JobKind } from "./tokens";

/**
 * Everything a run of a failed job may have written: a failed job keeps nothing. A video run writes its MP4
 * and WebM (a run whose success report was lost, or a fenced attempt); an Avatar run writes the portrait, rig,
 * cover and matte of the Avatar derived from its job id, which exists only if the job succeeded. Deleting is
 * idempotent. (A matte a video run made for its Avatar belongs to the Avatar and stays.)
 */
export async function deleteFailedJobOutputs(env: Env, kind: JobKind, jobId: string): Promise<void> {
  if (kind === "video") {
    await env.MEDIA.delete(videoOutputKeys(jobId));
    return;
  }
  const avatarId = await avatarIdForJob(jobId);
  // An Avatar row means the job made its Avatar: its artefacts belong to the Avatar now.
  if (await db(env).select({ id: avatars.id }).from(avatars).where(eq(avatars.id, avatarId)).get()) return;
  await env.MEDIA.delete(Object.values(avatarKeys(avatarId)));
}
