import type { VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { videoOutputKeys } from "../../platform/storage/keys";
import { endSplitRuns } from "./segments";
import { expireVideo } from "./transitions";

/**
 * Retention over: delete the output first, then mark the job expired. If the update fails the next sweep
 * deletes again (idempotent); a link requested in between is refused (isOutputAvailable checks expiresAt).
 * Also removes anything a stalled run of a never-finished job may have uploaded (a split render's parts too),
 * and ends a split render's runs.
 */
export async function expireVideoJob(env: Env, job: VideoJob, now: number): Promise<boolean> {
  const keys = [...new Set([job.outputKey, ...videoOutputKeys(job.id)].filter((k): k is string => !!k))];
  await env.MEDIA.delete(keys);
  const expired = await expireVideo(env, job, now);
  if (expired && job.segments !== null) await endSplitRuns(env, job.id);
  return expired;
}
