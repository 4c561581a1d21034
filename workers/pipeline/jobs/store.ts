import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, videoJobs, type AvatarJob, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import type { JobKind } from "./tokens";

export type AnyJob = { kind: "avatar"; job: AvatarJob } | { kind: "video"; job: VideoJob };

export const db = (env: Pick<Env, "DB">) => drizzle(env.DB);

export const TERMINAL = new Set(["succeeded", "failed", "expired"]);
export const isTerminal = (status: string) => TERMINAL.has(status);

/**
 * The columns both job tables share, addressed through one table object: the two tables declare them with
 * the same names and types (db/schema.ts jobColumns), so shared-column updates can be written once.
 */
export const sharedTable = (kind: JobKind) =>
  kind === "avatar" ? avatarJobs : (videoJobs as unknown as typeof avatarJobs);

export async function loadJob(env: Pick<Env, "DB">, kind: JobKind, jobId: string): Promise<AnyJob | undefined> {
  if (kind === "avatar") {
    const job = await db(env).select().from(avatarJobs).where(eq(avatarJobs.id, jobId)).get();
    return job && { kind, job };
  }
  const job = await db(env).select().from(videoJobs).where(eq(videoJobs.id, jobId)).get();
  return job && { kind, job };
}
