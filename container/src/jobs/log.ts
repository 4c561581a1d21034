/**
 * JSON-lines logging. Source and object URLs are signed (their query strings are credentials), so any
 * URL is logged through `redactUrl` and the Bearer tokens are never logged at all.
 */

export type Level = "debug" | "info" | "warn" | "error";
export type Fields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
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

export function createLogger(
  base: Fields = {},
  sink: Sink = (line) => process.stdout.write(line + "\n"),
  minLevel: Level = (process.env.LOG_LEVEL as Level) in LEVELS ? (process.env.LOG_LEVEL as Level) : "info",
): Logger {
  const emit = (level: Level, msg: string, fields?: Fields) => {
    if (LEVELS[level] < LEVELS[minLevel]) return;
    const entry: Fields = { time: new Date().toISOString(), level, msg: redactText(msg), ...base };
    for (const [k, v] of Object.entries(fields ?? {})) {
      entry[k] = typeof v === "string" ? redactText(v) : v instanceof Error ? redactText(v.message) : v;
    }
    try {
      sink(JSON.stringify(entry));
    } catch {
      /* logging never breaks a job */
    }
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger({ ...base, ...fields }, sink, minLevel),
  };
}
