/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

export interface LinkedSignal {
  signal: AbortSignal;
  /** Whether it aborted because the time ran out (rather than the parent). */
  timedOut(): boolean;
  /** Stops the timer and unhooks from the parent. */
  done(): void;
}

/**
 * A signal that aborts when `parent` does or after `ms`. Built by hand: a signal from AbortSignal.any that only
 * a fetch follows can be garbage collected, and then never aborts.
 */
export function linkedSignal(parent: AbortSignal | undefined, ms: number): LinkedSignal {
  const controller = new AbortController();
  let timedOut = false;
  const follow = () => controller.abort(parent?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  if (parent?.aborted) follow();
  else parent?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", follow);
    },
  };
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (whether or not the work stops). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
