import type { AvatarVideoClient, components } from "./client";

type AvatarJobDetail = components["schemas"]["AvatarJobDetail"];
type VideoJobDetail = components["schemas"]["VideoJobDetail"];

/** The spec's polling intervals: Avatar jobs every 5 to 10 seconds, video jobs every 15 seconds. */
export const AVATAR_POLL_MS = 5_000;
export const VIDEO_POLL_MS = 15_000;

export interface WaitOptions {
  /** Poll interval; defaults to the spec's interval for the job kind. */
  intervalMs?: number;
  /** Give up after this long (default: no limit). */
  timeoutMs?: number;
  /** Called once per new stage (video `progress.stage`, Avatar `status`). */
  onStage?: (stage: string) => void;
  signal?: AbortSignal;
}

export class JobWaitError extends Error {
  constructor(message: string, readonly status?: number, readonly body?: unknown) {
    super(message);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Seconds of a `Retry-After` header (delta-seconds or HTTP date), as milliseconds. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

type Poll<T> = () => Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * Polls until `done(data)` says the job ended. 429 and 503 answers wait `Retry-After` (or the interval) and
 * poll again; any other error answer stops with a JobWaitError.
 */
async function poll<T>(get: Poll<T>, stageOf: (d: T) => string, done: (d: T) => boolean, interval: number, opts: WaitOptions): Promise<T> {
  const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
  let lastStage: string | undefined;
  for (;;) {
    const { data, error, response } = await get();
    let wait = interval;
    if (data !== undefined) {
      const stage = stageOf(data);
      if (stage !== lastStage) opts.onStage?.((lastStage = stage));
      if (done(data)) return data;
    } else if (response.status === 429 || response.status === 503) {
      wait = retryAfterMs(response.headers.get("Retry-After")) ?? interval;
    } else {
      throw new JobWaitError(`GET ${new URL(response.url).pathname} answered ${response.status}`, response.status, error);
    }
    if (Date.now() + wait > deadline) throw new JobWaitError(`job did not end within ${opts.timeoutMs} ms`);
    await sleep(wait, opts.signal);
  }
}

const ended = (status: string) => status === "succeeded" || status === "failed" || status === "expired";

/** Waits for an Avatar creation job to succeed or fail; resolves with the final detail. */
export function waitForAvatar(client: AvatarVideoClient, jobId: string, opts: WaitOptions = {}): Promise<AvatarJobDetail> {
  const get = () => client.GET("/v1/open/avatar-jobs/{jobId}", { params: { path: { jobId } } });
  const stage = (d: AvatarJobDetail) => d.job.status;
  return poll<AvatarJobDetail>(get, stage, (d) => ended(d.job.status), opts.intervalMs ?? AVATAR_POLL_MS, opts);
}

/** Waits for a video job to end; resolves with the final detail (with `videoUrl` when it succeeded). */
export function waitForVideo(client: AvatarVideoClient, jobId: string, opts: WaitOptions = {}): Promise<VideoJobDetail> {
  const get = () => client.GET("/v1/open/video-jobs/{jobId}", { params: { path: { jobId } } });
  const stage = (d: VideoJobDetail) => d.job.progress?.stage ?? d.job.status;
  return poll<VideoJobDetail>(get, stage, (d) => ended(d.job.status), opts.intervalMs ?? VIDEO_POLL_MS, opts);
}
