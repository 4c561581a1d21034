/** What `onRequest` sees of an attempt: never headers, so never the key. */
export interface RequestInfo {
  method: string;
  /** The URL's path, e.g. `/v1/open/video-jobs/…` (no query, no host). */
  path: string;
  /** 0 for the first attempt, 1 for the first retry … */
  attempt: number;
}

/** What `onResponse` sees of an attempt's outcome. */
export interface ResponseInfo extends RequestInfo {
  /** The HTTP status; undefined when no answer came (then `error` says why). */
  status?: number;
  /** The answer's X-Request-ID (quote it to support). */
  requestId?: string;
  /** From sending to the whole body read, in milliseconds. */
  elapsedMs: number;
  /** `connection_error` or `timeout` when no answer came. */
  error?: "connection_error" | "timeout";
  /** Whether another attempt follows. */
  willRetry: boolean;
}

/** Hooks for logs and metrics: called once per attempt, retries included. They must not throw. */
export interface RequestHooks {
  onRequest?: (info: RequestInfo) => void;
  onResponse?: (info: ResponseInfo) => void;
}
