#!/usr/bin/env node
// Stands in for wrangler in test/scripts: keeps Cloudflare's side (databases, queues, buckets, secrets) in the
// JSON file $FAKE_WRANGLER_STATE and records every call, so setup:cloudflare can be run twice offline.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const file = process.env.FAKE_WRANGLER_STATE;
const state = existsSync(file)
  ? JSON.parse(readFileSync(file, "utf8"))
  : { d1: [], queues: [], buckets: [], secrets: {}, calls: [] };
const argv = process.argv.slice(2);
state.calls.push(argv.join(" "));
const env = (argv.find((a) => a.startsWith("--env=")) ?? "--env=").slice(6) || "production";
const words = argv.filter(
  (a) => !a.startsWith("--") && argv[argv.indexOf(a) - 1] !== "--config" && argv[argv.indexOf(a) - 1] !== "--format",
);
const [a, b, c, d] = words;
let code = 0;
let out = "";
const has = (list, name) => list.includes(name);
if (a === "d1" && b === "list") out = JSON.stringify(state.d1);
else if (a === "d1" && b === "create") {
  const uuid = `1111111${state.d1.length}-2222-3333-4444-555555555555`;
  state.d1.push({ name: c, uuid });
  out = `Created ${c}\n{"d1_databases": [{"binding": "DB", "database_name": "${c}", "database_id": "${uuid}"}]}`;
} else if (a === "d1" && b === "migrations") out = "migrations applied";
else if (a === "queues" && b === "info") code = has(state.queues, c) ? 0 : 1;
else if (a === "queues" && b === "create") state.queues.push(c);
else if (a === "r2" && c === "info") code = has(state.buckets, d) ? 0 : 1;
else if (a === "r2" && c === "create") state.buckets.push(d);
else if (a === "secret" && b === "list") {
  if (state.secrets[env]) out = JSON.stringify(state.secrets[env].map((name) => ({ name, type: "secret_text" })));
  else code = 1; // the Worker does not exist yet
} else if (a === "secret" && b === "bulk") {
  const names = Object.keys(JSON.parse(readFileSync(c, "utf8")));
  state.secrets[env] = [...new Set([...(state.secrets[env] ?? []), ...names])];
} else code = 2;
writeFileSync(file, JSON.stringify(state));
if (out) console.log(out);
process.exit(code);
