/**
 * The highest attempt seen per run (manager.ts runKey), so a late dispatch of an older attempt is refused even
 * after the newer one ended. Bounded: entries older than an hour, or beyond 10 000 runs, are forgotten (oldest first).
 */

const MAX_JOBS = 10_000;
const MAX_AGE_MS = 3_600_000;

export class AttemptsSeen {
  private readonly attempts = new Map<string, { attempt: number; at: number }>();

  /** Highest attempt remembered for the run, if any. */
  highest(run: string): number | undefined {
    return this.attempts.get(run)?.attempt;
  }

  remember(run: string, attempt: number): void {
    const now = Date.now();
    this.attempts.delete(run); // re-insert: the Map's order is the age order
    this.attempts.set(run, { attempt, at: now });
    for (const [id, v] of this.attempts) {
      if (this.attempts.size <= MAX_JOBS && now - v.at < MAX_AGE_MS) break;
      this.attempts.delete(id);
    }
  }
}
