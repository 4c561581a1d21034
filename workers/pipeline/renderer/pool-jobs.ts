/** What the renderer pool is asked for and answers (pool-state.ts), by the Worker (pool.ts) and the bench. */
export type RunKind = "avatar" | "video";
export interface JobRef {
  kind: RunKind;
  jobId: string;
}
export interface RunRequest extends JobRef {
  accountId: string;
}

/**
 * An instance for the run, with how long it had been idle (null: never used here); or, waiting, how many
 * renders of the same account are ahead of it (counted up to AHEAD_COUNTED, pool-waiters.ts, for a render
 * already waiting).
 */
export type Grant = { instance: number; idleMs: number | null } | { waiting: number };
export interface Outcome<T> {
  result: T;
  /** Waiting renders that just got an instance: the caller sends their queue messages. */
  granted: JobRef[];
}
/** A job the pool holds or queues, for the sweep to check against D1 (`since`: held or waiting since). */
export interface HeldJob extends JobRef {
  held: boolean;
  since: number;
}
