import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { VIDEO_ACCESS_MESSAGE } from "../../platform/auth/access";
import { canUseAvatar, admissionError, limiterFor, type ReadDecision } from "../../accounts/public";
import { videoJobs, type Account, type JobCreator, type VideoJob } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { forbidden } from "../../platform/http/errors";
import { videoFingerprint, type NormalizedVideoInput } from "../idempotency/fingerprint";
import { retryConflict } from "../idempotency/video-retry";
import { effectiveVideoStatus } from "../resources/video-job";
import { enqueueJob } from "../../pipeline/public";

/** Output retention: seven days after acceptance (spec: Video constants). */
export const VIDEO_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const defaultVideoName = (jobId: string) => `Video ${jobId.slice(0, 8)}`;

export const AVATAR_DENIED_MESSAGE =
  "Avatar access denied: avatarId must name an Avatar this account owns, a public Avatar, or one explicitly allowed for the account";

export interface VideoCreationAnswer {
  jobId: string;
  status: VideoJob["status"];
  createdAt: string;
}

/** The answer to a creation, new or retried: jobId, the job's current status, original createdAt. */
function creationAnswer(
  job: Pick<VideoJob, "id" | "status" | "expiresAt" | "createdAt">,
  now: number,
): VideoCreationAnswer {
  return { jobId: job.id, status: effectiveVideoStatus(job, now), createdAt: job.createdAt.toISOString() };
}

/** Insert the queued row unless it exists (by id or by retry key); enqueue only when this call stored it. */
async function storeJob(env: Env, row: typeof videoJobs.$inferInsert): Promise<boolean> {
  const inserted = await drizzle(env.DB)
    .insert(videoJobs)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: videoJobs.id });
  if (inserted.length === 0) return false;
  await enqueueJob(env, { kind: "video", jobId: row.id });
  return true;
}

/**
 * One video creation (new or retried by requestId), for POST /v1/open/videos and the console alike:
 * retry-key lookup, Avatar access, admission in the account's DO, the queued row and the queue message.
 * `input` must already be normalized (omitted settings ≡ explicit defaults). `onReadStatus` receives the
 * account's video read figures, which the admission round trip brings along (POST /videos's RateLimit headers).
 * `audioIdentity` replaces the audio URL in the retry fingerprint when the URL is made per upload (the
 * console's form audio: its content hash), so a double-submitted form finds its first job.
 */
export async function createVideoJob(
  env: Env,
  caller: { account: Account; creator: JobCreator },
  input: NormalizedVideoInput,
  requestId: string | null,
  onReadStatus?: (reads: ReadDecision) => void,
  audioIdentity?: string,
): Promise<VideoCreationAnswer> {
  const { account, creator } = caller;
  if (!account.limits.video) throw forbidden(VIDEO_ACCESS_MESSAGE); // video access requires explicit limits
  const db = drizzle(env.DB);
  const fingerprint = await videoFingerprint(audioIdentity ? { ...input, audioUrl: audioIdentity } : input);
  const findByRequestId = (key: string) =>
    db
      .select()
      .from(videoJobs)
      .where(and(eq(videoJobs.accountId, account.id), eq(videoJobs.requestId, key)))
      .get();

  // Both lookups at once. A stored retry is answered from D1 without touching any counter (also after
  // the DO forgot the claim); the Avatar check only matters for a new job.
  const [stored, avatarAccess] = await Promise.all([
    requestId ? findByRequestId(requestId) : undefined,
    canUseAvatar(env.DB, account.id, input.avatarId),
  ]);
  if (stored) {
    if (stored.fingerprint !== fingerprint) throw retryConflict(requestId!);
    return creationAnswer(stored, Date.now());
  }
  // Unknown and inaccessible Avatars get the same answer: a 403 must not reveal other accounts' Avatars.
  if (avatarAccess !== "ok") throw forbidden(AVATAR_DENIED_MESSAGE);

  const now = Date.now();
  const claim = { jobId: crypto.randomUUID(), requestId, fingerprint, createdAt: now };
  const { reads, ...admission } = await limiterFor(env, account.id).admitVideoCreationWithReads(
    claim,
    account.limits.video,
    now,
  );
  onReadStatus?.(reads);
  if (!admission.ok) throw admissionError(admission);

  // A concurrent request (or an earlier attempt that failed before storing) already claimed this requestId.
  const existing = admission.existing;
  if (existing && existing.fingerprint !== fingerprint) throw retryConflict(requestId!);
  const jobId = existing?.jobId ?? claim.jobId;
  const createdAt = new Date(existing?.createdAt ?? claim.createdAt);
  const storedNow = await storeJob(env, {
    id: jobId,
    accountId: account.id,
    ...creator,
    name: input.name ?? defaultVideoName(jobId),
    status: "queued",
    stage: "queued",
    avatarId: input.avatarId,
    requestId,
    fingerprint,
    audioUrl: input.audioUrl,
    backgroundUrl: input.backgroundUrl,
    settings: input.settings,
    createdAt,
    updatedAt: createdAt,
    expiresAt: new Date(createdAt.getTime() + VIDEO_RETENTION_MS),
  });

  if (storedNow) return { jobId, status: "queued", createdAt: createdAt.toISOString() };

  // Someone else stored it (a concurrent duplicate); answer with the row's current state.
  const job = await db
    .select()
    .from(videoJobs)
    .where(and(eq(videoJobs.id, jobId), eq(videoJobs.accountId, account.id)))
    .get();
  if (job) return creationAnswer(job, Date.now());
  // The requestId's row holds another job id (claim pruned from the DO long ago): compare with it.
  const holder = requestId ? await findByRequestId(requestId) : undefined;
  if (!holder) throw new Error(`video job ${jobId} missing right after insert`);
  if (holder.fingerprint !== fingerprint) throw retryConflict(requestId!);
  return creationAnswer(holder, Date.now());
}
