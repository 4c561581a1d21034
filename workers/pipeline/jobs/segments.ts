/**
 * The runs of a split render (docs/pipeline.md "Split renders"), rows of `video_segments`: segments 0…n−1 and
 * the join (idx n). Like a job row for a whole render, each row has a status, an attempt that fences its runs
 * and a heartbeat; every transition is one conditional statement (compare-and-set on status + attempt).
 *
 *   pending (the join, until every segment is done) → queued → processing (attempt + 1) → done
 *                                                       ↑______________| renderer unavailable (attempt given back)
 */
import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { type VideoJob, type VideoSegment, videoJobs, videoSegments } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { runId } from "../queue/messages";
import { releaseRenderer } from "../renderer/pool";
import { RESEND_AFTER_MS, STALE_HEARTBEAT_MS, SWEEP_BATCH } from "./constants";
import { db } from "./store";

type DbEnv = Pick<Env, "DB">;
const at = (t: number) => new Date(t);
const row = (jobId: string, idx: number) => and(eq(videoSegments.jobId, jobId), eq(videoSegments.idx, idx));
const stale = (now: number, staleMs: number) =>
  or(isNull(videoSegments.heartbeatAt), lt(videoSegments.heartbeatAt, at(now - staleMs)));

/**
 * The planning run (the job's current attempt) split the video into `count` segments: the job records the
 * count (its own heartbeat ends: from here its runs are the rows') and gets its rows, in one batch. True when
 * recorded now or before with the same count (a replayed event).
 */
export async function recordSplit(env: DbEnv, job: VideoJob, count: number, now: number): Promise<boolean> {
  const [updated] = await env.DB.batch([
    env.DB.prepare(
      `update video_jobs set segments = ?, heartbeat_at = null, stage = 'rendering', updated_at = ?
       where id = ? and status = 'processing' and attempt = ? and segments is null`,
    ).bind(count, now, job.id, job.attempt),
    // Only under the count just recorded; a replay finds its rows there already.
    env.DB.prepare(
      `insert into video_segments (job_id, idx, status, attempt, enqueued_at)
       select ?1, value, case when value < ?2 then 'queued' else 'pending' end, 0, ?3 from json_each(?4)
       where exists (select 1 from video_jobs where id = ?1 and segments = ?2 and attempt = ?5)
       on conflict do nothing`,
    ).bind(job.id, count, now, JSON.stringify(Array.from({ length: count + 1 }, (_, k) => k)), job.attempt),
  ]);
  return updated.meta.changes > 0 || job.segments === count;
}

export async function loadSegment(env: DbEnv, jobId: string, idx: number): Promise<VideoSegment | undefined> {
  return db(env).select().from(videoSegments).where(row(jobId, idx)).get();
}

/** May this run be dispatched now? queued, or processing whose renderer went silent. */
export function segmentDispatchable(s: VideoSegment, now: number, staleMs = STALE_HEARTBEAT_MS): boolean {
  if (s.status === "queued") return true;
  return s.status === "processing" && (!s.heartbeatAt || s.heartbeatAt.getTime() < now - staleMs);
}

/** queued (or stalled processing) → processing, attempt + 1: the new attempt, or null when another delivery won. */
export async function claimSegment(
  env: DbEnv,
  s: VideoSegment,
  now: number,
  staleMs = STALE_HEARTBEAT_MS,
): Promise<number | null> {
  const attempt = s.attempt + 1;
  const won = await db(env)
    .update(videoSegments)
    .set({ status: "processing", attempt, heartbeatAt: at(now) })
    .where(
      and(
        row(s.jobId, s.idx),
        eq(videoSegments.attempt, s.attempt),
        s.status === "queued"
          ? eq(videoSegments.status, "queued")
          : and(eq(videoSegments.status, "processing"), stale(now, staleMs)),
      ),
    )
    .returning({ idx: videoSegments.idx });
  return won.length ? attempt : null;
}

/** The renderer could not take the run: queued again, its attempt number given back (as releaseClaim). */
export async function releaseSegmentClaim(env: DbEnv, jobId: string, idx: number, attempt: number, now: number) {
  await db(env)
    .update(videoSegments)
    .set({ status: "queued", attempt: attempt - 1, heartbeatAt: null, enqueuedAt: at(now) })
    .where(and(row(jobId, idx), eq(videoSegments.status, "processing"), eq(videoSegments.attempt, attempt)));
}

/** A sign of life from the run's current attempt; false when it is not current. */
export async function segmentBeat(env: DbEnv, jobId: string, idx: number, attempt: number, now: number) {
  const rows = await db(env)
    .update(videoSegments)
    .set({ heartbeatAt: at(now) })
    .where(and(row(jobId, idx), eq(videoSegments.status, "processing"), eq(videoSegments.attempt, attempt)))
    .returning({ idx: videoSegments.idx });
  return rows.length > 0;
}

/** The frames a segment's run rendered: [start, end) of a timeline of `frames`. */
export interface SegmentFrames {
  start: number;
  end: number;
  frames: number;
}

/** processing → done, with the frames it rendered; false when the attempt is not current. */
export async function segmentDone(env: DbEnv, jobId: string, idx: number, attempt: number, f: SegmentFrames) {
  const rows = await db(env)
    .update(videoSegments)
    .set({ status: "done", heartbeatAt: null, startFrame: f.start, endFrame: f.end, frames: f.frames })
    .where(and(row(jobId, idx), eq(videoSegments.status, "processing"), eq(videoSegments.attempt, attempt)))
    .returning({ idx: videoSegments.idx });
  return rows.length > 0;
}

/** The join: pending → queued once all `count` segments are done. True for the one call that made it so. */
export async function joinReady(env: DbEnv, jobId: string, count: number, now: number): Promise<boolean> {
  const done = db(env)
    .select({ n: sql`count(*)` })
    .from(videoSegments)
    .where(and(eq(videoSegments.jobId, jobId), lt(videoSegments.idx, count), eq(videoSegments.status, "done")));
  const rows = await db(env)
    .update(videoSegments)
    .set({ status: "queued", enqueuedAt: at(now) })
    .where(and(row(jobId, count), eq(videoSegments.status, "pending"), sql`(${done}) = ${count}`))
    .returning({ idx: videoSegments.idx });
  return rows.length > 0;
}

/**
 * What the join is given: the segments' frames in order, or why they cannot be joined (they must tile one
 * timeline: from frame 0, each starting where the previous ended, all of the same timeline, to its end).
 */
export async function joinFrames(
  env: DbEnv,
  jobId: string,
  count: number,
): Promise<{ frames: number } | { problem: string }> {
  const rows = await db(env)
    .select()
    .from(videoSegments)
    .where(and(eq(videoSegments.jobId, jobId), lt(videoSegments.idx, count)))
    .orderBy(asc(videoSegments.idx))
    .all();
  const frames = rows[0]?.frames ?? 0;
  for (const [k, s] of rows.entries()) {
    const from = k ? rows[k - 1].endFrame : 0;
    if (s.idx !== k || s.status !== "done" || s.frames !== frames || s.startFrame !== from)
      return { problem: `segment ${k} of ${count} is not the continuation of the one before it` };
  }
  if (rows.length !== count || rows[count - 1].endFrame !== frames)
    return { problem: `the ${count} segments do not end at the timeline's frame ${frames}` };
  return { frames };
}

/**
 * The job ended (succeeded, failed, expired): its rows go and every run of it gives its renderer instance (or
 * place in line) back. A run still rendering is told to stop by its next event's answer.
 */
export async function endSplitRuns(env: Env, jobId: string): Promise<void> {
  const rows = await db(env)
    .delete(videoSegments)
    .where(eq(videoSegments.jobId, jobId))
    .returning({ idx: videoSegments.idx });
  await releaseRenderer(
    env,
    rows.map((r) => runId({ jobId, segment: r.idx })),
    Date.now(),
  );
}

/** For the sweep: runs that went silent, and queued runs whose message was sent long ago (or lost), with their job's status. */
export function segmentsToSweep(env: DbEnv, now: number, staleMs: number) {
  return db(env)
    .select({ segment: videoSegments, jobStatus: videoJobs.status })
    .from(videoSegments)
    .leftJoin(videoJobs, eq(videoJobs.id, videoSegments.jobId))
    .where(
      or(
        and(eq(videoSegments.status, "processing"), stale(now, staleMs)),
        and(
          eq(videoSegments.status, "queued"),
          or(isNull(videoSegments.enqueuedAt), lte(videoSegments.enqueuedAt, at(now - RESEND_AFTER_MS))),
        ),
      ),
    )
    .limit(SWEEP_BATCH)
    .all();
}

/** Stamps that these runs' messages were sent now. */
export async function markSegmentsSent(env: DbEnv, rows: Pick<VideoSegment, "jobId" | "idx">[], now: number) {
  if (!rows.length) return;
  const d = db(env);
  const [first, ...rest] = rows.map((r) =>
    d
      .update(videoSegments)
      .set({ enqueuedAt: at(now) })
      .where(row(r.jobId, r.idx)),
  );
  await d.batch([first, ...rest]);
}
