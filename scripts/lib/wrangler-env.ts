import { readFileSync, writeFileSync } from "node:fs";

/** What setup and deploy need of one wrangler.toml environment ("" = production, the top level). */
export interface WranglerEnv {
  env: string;
  worker: string;
  database: { name: string; id: string };
  queues: string[];
  buckets: string[];
  /** PUBLIC_BASE_URL of the environment's [vars] ("" when it is to be passed at deploy time). */
  publicBaseUrl: string;
}

/** The placeholder database_id of a fresh clone; `npm run setup:cloudflare` replaces it. */
export const PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The lines of one environment: the top level stops at the first `[env.`; `[env.NAME…]` tables belong to NAME.
 * wrangler.toml is ours and written flat, so a line reader is enough (no TOML dependency).
 */
function block(lines: string[], env: string): { start: number; end: number } {
  const isEnvHeader = (l: string, name?: string) =>
    name === undefined ? /^\[\[?env\./.test(l) : new RegExp(`^\\[\\[?env\\.${name}[\\].]`).test(l);
  if (env === "") {
    const end = lines.findIndex((l) => isEnvHeader(l));
    return { start: 0, end: end < 0 ? lines.length : end };
  }
  const start = lines.findIndex((l) => isEnvHeader(l, env));
  if (start < 0) throw new Error(`wrangler.toml has no [env.${env}]`);
  let end = start + 1;
  while (end < lines.length && (!isEnvHeader(lines[end]) || isEnvHeader(lines[end], env))) end++;
  return { start, end };
}

const values = (lines: string[], key: string) =>
  lines.flatMap((l) => {
    const m = new RegExp(`^${key} = "([^"]*)"`).exec(l);
    return m ? [m[1]] : [];
  });

export function readWranglerEnv(path: string, env: string): WranglerEnv {
  const lines = readFileSync(path, "utf8").split("\n");
  const { start, end } = block(lines, env);
  const own = lines.slice(start, end);
  const firstTable = own.findIndex((l, i) => i > 0 && l.startsWith("["));
  const [name] = values(firstTable < 0 ? own : own.slice(0, firstTable), "name");
  const [dbName] = values(own, "database_name");
  const [dbId] = values(own, "database_id");
  if (!name || !dbName || dbId === undefined)
    throw new Error(`wrangler.toml: ${env || "top level"} needs name, database_name, database_id`);
  return {
    env,
    worker: name,
    database: { name: dbName, id: dbId },
    queues: [...new Set([...values(own, "queue"), ...values(own, "dead_letter_queue")])],
    buckets: values(own, "bucket_name"),
    publicBaseUrl: values(own, "PUBLIC_BASE_URL")[0] ?? "",
  };
}

/** Writes the database id into the environment's d1_databases entry (the only line setup ever edits). */
export function writeDatabaseId(path: string, env: string, id: string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  const { start, end } = block(lines, env);
  const at = lines.findIndex((l, i) => i >= start && i < end && l.startsWith("database_id = "));
  lines[at] = `database_id = "${id}"`;
  writeFileSync(path, lines.join("\n"));
}
