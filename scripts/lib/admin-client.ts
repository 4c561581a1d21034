/** The admin CLI's plumbing (scripts/admin.ts): argument parsing, connection settings and calls to /v1/admin. */
import { existsSync, readFileSync } from "node:fs";
import { parseDevVars } from "./dev-vars";

/** A mistake in the command line: printed with the command's usage, exit code 1. */
export class UsageError extends Error {}

export interface Parsed {
  positional: string[];
  options: Map<string, string | true>;
}

/** `--key=value`, `--key value` (for options that take a value) and bare `--flag`, as the CLI always read them. */
export function parseArgs(argv: string[], takesValue: ReadonlySet<string>): Parsed {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (takesValue.has(arg.slice(2)) && i + 1 < argv.length) options.set(arg.slice(2), argv[++i]);
    else options.set(arg.slice(2), true);
  }
  return { positional, options };
}

export interface Connection {
  baseUrl: string;
  token: string;
}

/** Base URL: --base-url, $BASE_URL, http://127.0.0.1:8787. Token: --token, $ADMIN_TOKEN, ADMIN_TOKEN of ./.dev.vars. */
export function connection(options: Parsed["options"]): Connection {
  const baseUrl = String(options.get("base-url") ?? process.env.BASE_URL ?? "http://127.0.0.1:8787").replace(
    /\/+$/,
    "",
  );
  let token = options.get("token") ?? process.env.ADMIN_TOKEN;
  if (!token && existsSync(".dev.vars")) token = parseDevVars(readFileSync(".dev.vars", "utf8")).ADMIN_TOKEN;
  if (!token || token === true)
    throw new UsageError("No admin token: pass --token, set ADMIN_TOKEN, or run `npm start` once to create .dev.vars");
  return { baseUrl, token };
}

export const bool = (name: string, value: string | true): boolean => {
  if (value === true || value === "true") return true;
  if (value === "false") return false;
  throw new UsageError(`--${name} must be true or false`);
};

export const int = (name: string, value: string | true | undefined): number => {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw new UsageError(`${name} must be an integer`);
  return Number(value);
};

export const need = (value: string | undefined, what: string) => {
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
};

export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** One admin API call; a non-2xx answer becomes an Error "METHOD path → status code: message (request id)". */
export async function call(cfg: Connection, method: string, path: string, body?: unknown) {
  const res = await fetch(`${cfg.baseUrl}/v1/admin${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${cfg.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      const err = JSON.parse(text).error;
      message = `${err.code}: ${err.message} (request ${err.requestId})`;
    } catch {
      // not an envelope: show the raw text
    }
    throw new Error(`${method} ${path} → ${res.status} ${message}`);
  }
  return text ? JSON.parse(text) : null;
}

/** "3h04m", "12m05s", "42s": ages in the jobs table. */
export function shortDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
  if (seconds < 86400)
    return `${Math.floor(seconds / 3600)}h${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}m`;
  return `${Math.floor(seconds / 86400)}d${String(Math.floor(seconds / 3600) % 24).padStart(2, "0")}h`;
}

/** Left-aligned columns separated by two spaces. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return `${[header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}
