import { AvatarVideoError } from "./errors.js";
import { linkedSignal, sleep } from "./signals.js";

/** The spec's polling intervals: Avatar jobs every 5 to 10 seconds, video jobs every 15 seconds. */
export const AVATAR_POLL_MS = 5_000;
export const VIDEO_POLL_MS = 15_000;

export interface WaitOptions {
  /** Poll interval; defaults to the spec's interval for the job kind. */
  intervalMs?: number;
  /** Give up after this many milliseconds with an AvatarVideoError `timeout` (default: no limit). */
  timeout?: number;
  /** @deprecated Use `timeout` (also milliseconds). */
  timeoutMs?: number;
  /** Called once per new stage (a video's `progress.stage`, an Avatar job's `status`). */
  onStage?: (stage: string) => void;
  /** Cancels the wait and the read in flight. */
  signal?: AbortSignal;
}

export interface Poll<T> {
  read: (signal: AbortSignal | undefined) => Promise<T>;
  stage: (value: T) => string;
  status: (value: T) => string;
  intervalMs: number;
}

const ENDED = new Set(["succeeded", "failed", "expired"]);

/**
 * Reads until the job has ended and resolves with the last read, whatever the outcome. A read that still fails
 * after its own retries with a retryable error (rate limit, outage) is tried again at the next poll, since
 * the job goes on meanwhile; any other error ends the wait.
 */
export async function waitForJob<T>(poll: Poll<T>, options: WaitOptions): Promise<T> {
  const timeout = options.timeout ?? options.timeoutMs;
  const deadline = timeout === undefined ? undefined : linkedSignal(options.signal, timeout);
  const signal = deadline?.signal ?? options.signal;
  const interval = options.intervalMs ?? poll.intervalMs;
  let lastStage: string | undefined;
  try {
    for (;;) {
      let wait = interval;
      try {
        const value = await poll.read(signal);
        const stage = poll.stage(value);
        if (stage !== lastStage) options.onStage?.((lastStage = stage));
        if (ENDED.has(poll.status(value))) return value;
      } catch (error) {
        if (!(error instanceof AvatarVideoError && error.retryable) || signal?.aborted) throw error;
        wait = Math.max(interval, error.retryAfterMs ?? 0);
      }
      await sleep(wait, signal);
    }
  } catch (error) {
    if (deadline?.timedOut())
      throw new AvatarVideoError({ code: "timeout", message: `the job did not end within ${timeout} ms` });
    throw error;
  } finally {
    deadline?.done();
  }
}
