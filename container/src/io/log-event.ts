/**
 * The renderer's logging, shaped like the Worker's (workers/platform/logging/log-event.ts): one JSON line per
 * event, `{time, level, event, ...fields}`, events named in snake_case so logs can be filtered on them.
 * `logEvent` writes one line; a `Logger` is the same with fields bound (service, jobId, attempt…).
 * Source and object URLs are signed (their query strings are credentials), so any URL is logged through
 * `redactUrl`, text fields through `redactText`, and the Bearer tokens are never logged at all.
 */
import type { Dispatch } from "@avatar-video/contract";

export type Level = "debug" | "info" | "warn" | "error";
export type Fields = Record<string, unknown>;

export interface Logger {
  debug(event: string, fields?: Fields): void;
  info(event: string, fields?: Fields): void;
  warn(event: string, fields?: Fields): void;
  error(event: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

/** `scheme://host/path` only: no query, no fragment, no credentials. Unparsable input is not echoed. */
export function redactUrl(raw: unknown): string {
  if (typeof raw !== "string") return "(none)";
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid url)";
  }
}

/** Removes query strings from URLs that a message (e.g. a FetchError's) may contain. */
export function redactText(text: string): string {
  return text.replace(/(https?:\/\/[^\s?#"']*)[?#][^\s"']*/gi, "$1").replace(/\/\/[^/\s@]*@/g, "//");
}

const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Sink = (line: string) => void;

const stdout: Sink = (line) => process.stdout.write(`${line}\n`);
const envLevel = (): Level => ((process.env.LOG_LEVEL as Level) in LEVELS ? (process.env.LOG_LEVEL as Level) : "info");

/** The JSON line of one event (errors as their message, text redacted), or null below `minLevel`. */
function line(event: string, level: Level, fields: Fields, minLevel: Level): string | null {
  if (LEVELS[level] < LEVELS[minLevel]) return null;
  const entry: Fields = { time: new Date().toISOString(), level, event };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined)
      entry[k] = typeof v === "string" ? redactText(v) : v instanceof Error ? redactText(v.message) : v;
  }
  try {
    return JSON.stringify(entry);
  } catch {
    return JSON.stringify({ time: entry.time, level, event, error: "log fields not serialisable" });
  }
}

/** One event, unbound: `logEvent("renderer_listening", { port })`. */
export function logEvent(event: string, fields: Fields = {}, level: Level = "info", sink: Sink = stdout): void {
  const text = line(event, level, fields, envLevel());
  if (text !== null) sink(text);
}

/** A logger with `base` fields on every line (a job's logger carries its jobId, kind and attempt). */
export function createLogger(base: Fields = {}, sink: Sink = stdout, minLevel: Level = envLevel()): Logger {
  const emit = (level: Level, event: string, fields?: Fields) => {
    const text = line(event, level, { ...base, ...fields }, minLevel);
    if (text === null) return;
    try {
      sink(text);
    } catch {
      /* logging never breaks a job */
    }
  };
  return {
    debug: (e, f) => emit("debug", e, f),
    info: (e, f) => emit("info", e, f),
    warn: (e, f) => emit("warn", e, f),
    error: (e, f) => emit("error", e, f),
    child: (fields) => createLogger({ ...base, ...fields }, sink, minLevel),
  };
}

/** What a log line may say about a run's sources: host and path, never the (signed) query. */
export function redactedSources(d: Dispatch): Fields {
  return d.kind === "avatar"
    ? { imageUrl: redactUrl(d.imageUrl) }
    : {
        audioUrl: redactUrl(d.audioUrl),
        backgroundUrl: d.backgroundUrl ? redactUrl(d.backgroundUrl) : undefined,
        settings: d.settings,
      };
}
