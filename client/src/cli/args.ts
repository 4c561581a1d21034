import { parseArgs } from "node:util";
import { DEFAULT_BASE_URL } from "../config.js";
import { closest } from "./suggest.js";

/** A command line the CLI cannot run (exit code 2). Messages never repeat argument values: one may be a key. */
export class UsageError extends Error {}

export interface Flag {
  description: string;
  /** Placeholder of the value in help, e.g. "url"; absent for a boolean switch. */
  value?: string;
  multiple?: true;
  required?: true;
}

export type Flags = Record<string, Flag>;

/** Options every command takes. Help names the variables, never their values. */
export const COMMON_FLAGS: Flags = {
  json: { description: "Print the result as JSON on stdout" },
  "base-url": { value: "url", description: `Server root (env AVATAR_VIDEO_BASE_URL; default ${DEFAULT_BASE_URL})` },
  "app-id": { value: "id", description: "App ID (env AVATAR_VIDEO_APP_ID)" },
  "api-key": {
    value: "key",
    description: "API key (env AVATAR_VIDEO_API_KEY, preferred: flags show in the process list)",
  },
  help: { description: "Show this help" },
};

type Value = string | boolean | (string | boolean)[] | undefined;

/** A parsed command line with typed reads; a malformed value is a UsageError. */
export class Args {
  constructor(
    private readonly values: Record<string, Value>,
    readonly positionals: string[],
  ) {}

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === "string" ? value : undefined;
  }

  strings(name: string): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  integer(name: string): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new UsageError(`--${name} takes a whole number`);
    return Number(text);
  }
}

/** Parses `argv` against the command's flags and positional names (all required). */
export function parse(flags: Flags, positionalNames: string[], argv: string[]): Args {
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      { type: flag.value ? ("string" as const) : ("boolean" as const), multiple: flag.multiple === true },
    ]),
  );
  const parsed = strictParse(
    () => parseArgs({ args: argv, options, allowPositionals: true, strict: true }),
    Object.keys(flags),
  );
  const args = new Args(parsed.values, parsed.positionals);
  if (args.flag("help")) return args;
  if (parsed.positionals.length !== positionalNames.length) {
    throw new UsageError(
      positionalNames.length
        ? `expected ${positionalNames.map((n) => `<${n}>`).join(" ")}`
        : "takes no positional arguments",
    );
  }
  const missing = Object.keys(flags).filter((name) => flags[name]?.required && args.string(name) === undefined);
  if (missing.length) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(", ")}`);
  return args;
}

/**
 * Node's parse errors (unknown option, missing value) as usage errors, an unknown option with the flag it most
 * likely meant; anything else is a bug, thrown as is.
 */
function strictParse<T>(parse: () => T, flagNames: string[]): T {
  try {
    return parse();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      // Only the option's name is repeated, never a value given with it (`--apikey=…` may hold a key).
      const name = /'-+([^'=\s]+)/.exec((error as Error).message)?.[1] ?? "";
      const guess = closest(name, flagNames);
      throw new UsageError(`unknown option --${name}${guess ? `; did you mean --${guess}?` : ""}`);
    }
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** Help lines for flags: "  --name <value>  description". */
export function describeFlags(flags: Flags): string {
  const rows = Object.entries(flags).map(([name, flag]) => [
    `--${name}${flag.value ? ` <${flag.value}>` : ""}`,
    flag.description + (flag.required ? " (required)" : flag.multiple ? " (repeatable)" : ""),
  ]);
  const width = Math.max(...rows.map(([left]) => left!.length));
  return rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`).join("\n");
}
