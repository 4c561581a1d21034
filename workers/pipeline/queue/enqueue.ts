import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, videoJobs } from "../../platform/db/schema";
import type { Env } from "../../platform/env";
import type { JobMessage } from "./messages";
import { logEvent } from "../../platform/logging/log-event";

export const jobTable = (kind: JobMessage["kind"]) => (kind === "avatar" ? avatarJobs : videoJobs);

/**
 * Send a job (already persisted as queued) to the queue, then stamp `enqueuedAt`. Never throws: when the
 * send fails the row keeps `enqueuedAt` null and the sweep re-sends it within a minute or two, so an
 * accepted job cannot be lost between D1 and the queue.
 */
export async function enqueueJob(env: Env, msg: JobMessage): Promise<void> {
  try {
    await env.JOBS.send({ kind: msg.kind, jobId: msg.jobId });
  } catch (err) {
    logEvent("enqueue_failed", { kind: msg.kind, jobId: msg.jobId, error: err }, "error");
    return;
  }
  try {
    const table = jobTable(msg.kind);
    await drizzle(env.DB).update(table).set({ enqueuedAt: new Date() }).where(eq(table.id, msg.jobId));
  } catch (err) {
    // The message is sent; a missing stamp only means the sweep may send a harmless duplicate.
    logEvent("enqueue_stamp_failed", { kind: msg.kind, jobId: msg.jobId, error: err }, "error");
  }
}
