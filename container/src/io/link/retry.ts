/**
 * The renderer's one retry helper (every callback and object transfer goes through it): exponential backoff
 * from `backoffMs` capped at `backoffMaxMs`, jittered over the upper half, cancelled by the job's signal.
 * Hand-written rather than p-retry: the loops must stop at once on the job's signal with the signal's own
 * reason (a JobStop), and decide per error whether to go on — two lines here, an adapter around p-retry.
 */
export interface RetryPolicy {
  retries: number;
  backoffMs: number;
  backoffMaxMs: number;
}

/**
 * Runs `attempt` until it resolves, `shouldRetry(err)` says no, or `policy.retries` retries are spent.
 * An aborted `signal` ends the loop with the signal's reason, even mid-wait.
 */
export async function retry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  shouldRetry: (err: unknown, retry: number) => boolean,
): Promise<T> {
  for (let i = 0; ; i++) {
    signal.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (i >= policy.retries || !shouldRetry(err, i)) throw err;
      const base = Math.min(policy.backoffMaxMs, policy.backoffMs * 2 ** i);
      await sleep(base / 2 + Math.random() * (base / 2), signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(t), reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The job's signal plus a deadline, on a plain timer. (A composite with AbortSignal.timeout() can be
 * garbage-collected before it fires on Node 20: a Worker that never answers then hangs the request,
 * and the job with it.) `clear()` once the exchange is over.
 */
export function withDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const c = new AbortController();
  const onAbort = () => c.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const t = setTimeout(() => c.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  return {
    signal: c.signal,
    clear: () => {
      clearTimeout(t);
      signal.removeEventListener("abort", onAbort);
    },
  };
}
