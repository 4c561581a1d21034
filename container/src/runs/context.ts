import type { RendererConfig, WorkerLink, Logger } from "../io/public";
import type { Engines } from "./engines";

export interface JobContext<D> {
  dispatch: D;
  link: WorkerLink;
  config: RendererConfig;
  engines: Engines;
  log: Logger;
  /** Scratch directory of this run; removed when the job ends, whatever the outcome. */
  workDir: string;
  /** Aborted when the job must stop silently (Worker abort, fencing, newer attempt, shutdown). */
  signal: AbortSignal;
}

/**
 * Settles with the promise, or rejects with `signal.reason` as soon as the signal aborts (for work
 * that does not take a signal itself; its result is then ignored).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

/** Milliseconds since `start` (performance clock), rounded. */
export const since = (start: number) => Math.round(performance.now() - start);
