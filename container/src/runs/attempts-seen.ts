/**
 * The highest attempt seen per job, so a late dispatch of an older attempt is refused even after the newer
 * one ended. Bounded: entries older than an hour, or beyond 10 000 jobs, are forgotten (oldest first).
 */
import type { Dispatch } from "@avatar-video/contract";

const MAX_JOBS = 10_000;
const MAX_AGE_MS = 3_600_000;

export class AttemptsSeen {
  private readonly attempts = new Map<string, { attempt: number; at: number }>();

  /** Highest attempt remembered for the job, if any. */
  highest(jobId: string): number | undefined {
    return this.attempts.get(jobId)?.attempt;
  }

  remember(d: Dispatch): void {
    const now = Date.now();
    this.attempts.delete(d.jobId); // re-insert: the Map's order is the age order
    this.attempts.set(d.jobId, { attempt: d.attempt, at: now });
    for (const [id, v] of this.attempts) {
      if (this.attempts.size <= MAX_JOBS && now - v.at < MAX_AGE_MS) break;
      this.attempts.delete(id);
    }
  }
}
