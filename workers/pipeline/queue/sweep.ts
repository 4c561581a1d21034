import { and, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { avatarJobs, type VideoSegment, videoJobs } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import { backgroundBaseUrlProblem } from "../../platform/http/base-url";
import {
  AVATAR_START_DEADLINE_MS,
  MAX_ATTEMPTS,
  RECONCILE_ACCOUNTS,
  RECONCILE_WINDOW_MS,
  RESEND_AFTER_MS,
  staleHeartbeatMs,
  SWEEP_BATCH,
  WAITING_FOR_RENDERER,
} from "../jobs/constants";
import { failStalled } from "../jobs/dispatch";
import { expireVideoJob } from "../jobs/expiry";
import { deleteFailedJobOutputs } from "../jobs/outputs";
import { abortStaleRunUploads } from "../jobs/run-uploads";
import { PIPELINE_FAILURES } from "../jobs/failures";
import { db, loadJob, sharedTable } from "../jobs/store";
import type { JobKind } from "../jobs/tokens";
import { endSplitRuns, markSegmentsSent, segmentsToSweep } from "../jobs/segments";
import { failJob, heartbeatStale } from "../jobs/transitions";
import { reconcileAccount } from "../../accounts/public";
import { reconcileRendererPool } from "../renderer/pool";
import { logEvent } from "../../platform/logging/log-event";

/** A job row whose enqueueJob is still running has enqueuedAt null for a moment: leave it that long. */
const FRESH_ROW_GRACE_MS = 30_000;

export interface SweepReport {
  resent: number;
  redispatched: number;
  stalledFailed: number;
  avatarTimedOut: number;
  expired: number;
  /** Multipart uploads of fenced or ended runs aborted. */
  uploadsAborted: number;
  reconciledAccounts: number;
  errors: string[];
}

/**
 * The scheduled sweep (Cron Trigger, every minute). Each step handles at most SWEEP_BATCH rows and its
 * failure does not stop the others; whatever is left is picked up by the next run.
 */
export async function runSweep(env: Env, now: number = Date.now()): Promise<SweepReport> {
  const report: SweepReport = {
    resent: 0,
    redispatched: 0,
    stalledFailed: 0,
    avatarTimedOut: 0,
    expired: 0,
    uploadsAborted: 0,
    reconciledAccounts: 0,
    errors: [],
  };
  // Re-sent and re-dispatched jobs would carry loopback callbacks: refuse the whole run, loudly.
  const problem = backgroundBaseUrlProblem(env);
  if (problem) {
    logEvent("public_base_url_missing", { work: "sweep", error: problem }, "error");
    report.errors.push(problem);
    return report;
  }
  const step = async (name: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      report.errors.push(`${name}: ${String(err)}`);
      logEvent("sweep_step_failed", { step: name, error: err }, "error");
    }
  };
  await step("avatar_deadline", () => failOverdueAvatarJobs(env, now, report));
  await step("video_expiry", () => expireVideoJobs(env, now, report));
  await step("failed_outputs", () => deleteFailedOutputs(env, now));
  for (const kind of ["avatar", "video"] as const) {
    await step(`${kind}_resend`, () => resendQueued(env, kind, now, report));
    await step(`${kind}_stalled`, () => handleStalled(env, kind, now, report));
  }
  await step("video_segments", () => sweepSegments(env, now, report));
  // After the steps that end jobs, so a run they fenced or failed loses its unfinished uploads in this pass.
  await step("run_uploads", async () => void (report.uploadsAborted += await abortStaleRunUploads(env)));
  await step("reconcile", () => reconcileAvatarAccounts(env, now, report));
  // A lost release (isolate gone between D1 and the pool) holds an instance until here.
  await step("renderer_pool", async () => void (await reconcileRendererPool(env, now)));
  if (
    report.errors.length ||
    report.resent ||
    report.redispatched ||
    report.stalledFailed ||
    report.expired ||
    report.uploadsAborted ||
    report.avatarTimedOut
  ) {
    logEvent("sweep", { ...report });
  }
  return report;
}

async function send(env: Env, kind: JobKind, ids: string[], now: number) {
  if (!ids.length) return;
  await env.JOBS.sendBatch(ids.map((jobId) => ({ body: { kind, jobId } })));
  const t = sharedTable(kind);
  await db(env)
    .update(t)
    .set({ enqueuedAt: new Date(now) })
    .where(inArray(t.id, ids));
}

/** queued jobs never sent (the send failed) or sent long ago (message lost or dead-lettered): send again. */
async function resendQueued(env: Env, kind: JobKind, now: number, report: SweepReport) {
  const t = sharedTable(kind);
  const rows = await db(env)
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        eq(t.status, "queued"),
        or(
          and(isNull(t.enqueuedAt), lt(t.createdAt, new Date(now - FRESH_ROW_GRACE_MS))),
          lt(t.enqueuedAt, new Date(now - RESEND_AFTER_MS)),
        ),
      ),
    )
    .orderBy(t.createdAt)
    .limit(SWEEP_BATCH)
    .all();
  await send(
    env,
    kind,
    rows.map((r) => r.id),
    now,
  );
  report.resent += rows.length;
}

/**
 * processing jobs whose renderer went silent (died, restarted, lost its container): dispatched again
 * through the queue (the consumer's claim makes it attempt + 1) while attempts remain, else failed with a
 * retryable code. A video shows `waiting_for_renderer` until the new run reports, instead of the stage of
 * a run that no longer exists.
 */
async function handleStalled(env: Env, kind: JobKind, now: number, report: SweepReport) {
  const t = sharedTable(kind);
  const staleMs = staleHeartbeatMs(env);
  // A split render's job has no run of its own: its runs are rows (sweepSegments).
  const whole = kind === "video" ? isNull(videoJobs.segments) : undefined;
  const rows = await db(env)
    .select({ id: t.id, attempt: t.attempt })
    .from(t)
    .where(and(eq(t.status, "processing"), heartbeatStale(t, now, staleMs), whole))
    .orderBy(t.heartbeatAt)
    .limit(SWEEP_BATCH)
    .all();
  const again: string[] = [];
  for (const row of rows) {
    if (row.attempt < MAX_ATTEMPTS) {
      again.push(row.id);
      continue;
    }
    const found = await loadJob(env, kind, row.id);
    if (found && (await failStalled(env, found, now))) report.stalledFailed++;
  }
  if (kind === "video" && again.length) {
    await db(env)
      .update(videoJobs)
      .set({ stage: WAITING_FOR_RENDERER, updatedAt: new Date(now) })
      .where(
        and(
          inArray(videoJobs.id, again),
          eq(videoJobs.status, "processing"),
          ne(videoJobs.stage, WAITING_FOR_RENDERER),
          heartbeatStale(t, now, staleMs),
        ),
      );
  }
  await send(env, kind, again, now);
  report.redispatched += again.length;
}

/**
 * A split render's runs (docs/pipeline.md "Split renders"), as the two steps above do for whole renders: a
 * run silent past the stall threshold is sent again alone while attempts remain (else its job fails), a
 * queued run whose message is 2 minutes old (or was never sent) is sent again, and the rows of an ended job
 * (one failed before its split was seen) end.
 */
async function sweepSegments(env: Env, now: number, report: SweepReport) {
  const rows = await segmentsToSweep(env, now, staleHeartbeatMs(env));
  const again: VideoSegment[] = [];
  for (const { segment, jobStatus } of rows) {
    if (jobStatus !== "processing") await endSplitRuns(env, segment.jobId);
    else if (segment.status === "queued" || segment.attempt < MAX_ATTEMPTS) again.push(segment);
    else {
      const found = await loadJob(env, "video", segment.jobId);
      if (found && (await failStalled(env, found, now))) report.stalledFailed++;
    }
  }
  if (!again.length) return;
  await env.JOBS.sendBatch(again.map((s) => ({ body: { kind: "video" as const, jobId: s.jobId, segment: s.idx } })));
  await markSegmentsSent(env, again, now);
  report.redispatched += again.filter((s) => s.status === "processing").length;
  report.resent += again.filter((s) => s.status === "queued").length;
}

/** Avatar jobs are short: one not resolved within the deadline fails instead of holding a unit and a slot. */
async function failOverdueAvatarJobs(env: Env, now: number, report: SweepReport) {
  const rows = await db(env)
    .select()
    .from(avatarJobs)
    .where(
      and(
        inArray(avatarJobs.status, ["queued", "processing"]),
        lte(avatarJobs.createdAt, new Date(now - AVATAR_START_DEADLINE_MS)),
      ),
    )
    .limit(SWEEP_BATCH)
    .all();
  for (const job of rows) {
    const failure = job.status === "queued" ? PIPELINE_FAILURES.avatarNotStarted : PIPELINE_FAILURES.avatarStalled;
    if (await failJob(env, { kind: "avatar", job }, failure, now, [job.status as "queued" | "processing"]))
      report.avatarTimedOut++;
  }
}

/** Succeeded past expiresAt (output deleted) and queued/processing past seven days → expired. */
async function expireVideoJobs(env: Env, now: number, report: SweepReport) {
  const rows = await db(env)
    .select()
    .from(videoJobs)
    .where(
      and(inArray(videoJobs.status, ["queued", "processing", "succeeded"]), lte(videoJobs.expiresAt, new Date(now))),
    )
    .orderBy(videoJobs.expiresAt)
    .limit(SWEEP_BATCH)
    .all();
  for (const job of rows) if (await expireVideoJob(env, job, now)) report.expired++;
}

/**
 * Failed jobs keep no output: failJob deletes it at once, and every run cleans the jobs that failed within the
 * last FAILED_OUTPUT_WINDOW_MS again, so an upload still streaming when its job failed (its PUT began while
 * the run was current) is deleted too; past the window nothing can write for it any more.
 */
const FAILED_OUTPUT_WINDOW_MS = 10 * 60_000;

async function deleteFailedOutputs(env: Env, now: number) {
  for (const kind of ["avatar", "video"] as const) {
    const t = sharedTable(kind);
    const rows = await db(env)
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.status, "failed"), gte(t.completedAt, new Date(now - FAILED_OUTPUT_WINDOW_MS))))
      .orderBy(desc(t.completedAt)) // newest first: older ones were cleaned when they failed and by earlier runs
      .limit(SWEEP_BATCH)
      .all();
    for (const { id } of rows) await deleteFailedJobOutputs(env, kind, id);
  }
}

/** Align each recently active account's limiter (concurrency slots, units) with D1. */
async function reconcileAvatarAccounts(env: Env, now: number, report: SweepReport) {
  const accounts = await db(env)
    .selectDistinct({ accountId: avatarJobs.accountId })
    .from(avatarJobs)
    .where(
      or(
        inArray(avatarJobs.status, ["queued", "processing"]),
        gte(avatarJobs.updatedAt, new Date(now - RECONCILE_WINDOW_MS)),
      ),
    )
    .orderBy(sql`random()`)
    .limit(RECONCILE_ACCOUNTS)
    .all();
  for (const { accountId } of accounts) {
    try {
      await reconcileAccount(env, accountId, now);
      report.reconciledAccounts++;
    } catch (err) {
      report.errors.push(`reconcile ${accountId}: ${String(err)}`);
    }
  }
}
