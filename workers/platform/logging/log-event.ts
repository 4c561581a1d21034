/**
 * The Worker's one logging helper: one JSON line per event, so Workers Logs / `wrangler tail` can filter on
 * fields. Names are snake_case events; the usual fields are `requestId`, `jobId`, `accountId`, `attempt`,
 * `kind` and durations in `ms`. Errors are logged as their message (never a stack, never a secret: callers
 * pass no tokens or signed URLs).
 */

export type LogLevel = "info" | "warn" | "error";

export interface LogFields {
  requestId?: string;
  jobId?: string;
  accountId?: string;
  attempt?: number;
  kind?: string;
  /** Duration of what the event reports, in milliseconds. */
  ms?: number;
  error?: unknown;
  [field: string]: unknown;
}

const METHOD = { info: "log", warn: "warn", error: "error" } as const;

export function logEvent(event: string, fields: LogFields = {}, level: LogLevel = "info"): void {
  const line: Record<string, unknown> = { event, level };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) line[k] = v instanceof Error ? v.message : k === "error" ? String(v) : v;
  }
  try {
    console[METHOD[level]](JSON.stringify(line));
  } catch {
    console[METHOD[level]](JSON.stringify({ event, level, error: "log fields not serialisable" }));
  }
}
