/**
 * `npm run setup:cloudflare [-- --env staging] [--dry-run]`: everything `npm run deploy` needs on Cloudflare,
 * made or reused, so it can run again at any time. Steps (each prints what it did):
 *   D1 database (found by name in `wrangler d1 list`, else created; its id written into wrangler.toml),
 *   queues and R2 bucket (kept when `info` finds them, else created), remote D1 migrations, and the secrets
 *   `wrangler secret list` lacks, generated and put with one `wrangler secret bulk` (existing ones are kept:
 *   rotating them would sign every user out). Generated values go to .local/cloudflare/<env>.secrets.json
 *   (git-ignored, mode 600), the only place the admin token is shown.
 * --dry-run prints the plan and calls nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDevVars } from "./lib/dev-vars";
import { PLACEHOLDER_ID, readWranglerEnv, type WranglerEnv, writeDatabaseId } from "./lib/wrangler-env";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dryRun = args.includes("--dry-run");
const envName = option("--env") ?? "";
const config = option("--config") ?? "wrangler.toml";
const target = readWranglerEnv(config, envName);
const label = envName || "production";

/** Runs wrangler against the chosen config and environment; answers its stdout, or null when it failed. */
function wrangler(...cmd: string[]): string | null {
  try {
    return execFileSync("wrangler", [...cmd, "--config", config, `--env=${envName}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      // CI: no prompts (migrations apply asks for a yes otherwise).
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    });
  } catch {
    return null;
  }
}
function mustWrangler(...cmd: string[]): string {
  const out = wrangler(...cmd);
  if (out === null) throw new Error(`wrangler ${cmd.join(" ")} failed; run it by hand to see why`);
  return out;
}

const SECRET_PAIRS = [["SESSION_TOKEN_PRIVATE_KEY", "SESSION_TOKEN_PUBLIC_KEY"]];

interface Step {
  plan: string;
  run(): string;
}

function database(t: WranglerEnv): Step {
  return {
    plan: `D1 database ${t.database.name}: reuse it if \`wrangler d1 list\` has it, else create it; write its id into ${config}`,
    run() {
      const listed = JSON.parse(mustWrangler("d1", "list", "--json")) as { name: string; uuid: string }[];
      let id = listed.find((d) => d.name === t.database.name)?.uuid;
      const created = !id;
      if (!id) {
        const out = mustWrangler("d1", "create", t.database.name);
        id = /"?database_id"?\s*[:=]\s*"([0-9a-f-]{36})"/.exec(out)?.[1];
        if (!id) throw new Error(`wrangler d1 create ${t.database.name} printed no database_id`);
      }
      if (id !== t.database.id) writeDatabaseId(config, envName, id);
      return `D1 database ${t.database.name}: ${created ? "created" : "reused"} (${id})`;
    },
  };
}

const resource = (what: "queues" | "r2 bucket", name: string): Step => ({
  plan: `${what === "queues" ? "queue" : "R2 bucket"} ${name}: reuse it if \`wrangler ${what} info\` finds it, else create it`,
  run() {
    const sub = what === "queues" ? ["queues"] : ["r2", "bucket"];
    if (wrangler(...sub, "info", name) !== null) return `${sub.join(" ")} ${name}: reused`;
    mustWrangler(...sub, "create", name);
    return `${sub.join(" ")} ${name}: created`;
  },
});

const migrations: Step = {
  plan: "D1 migrations: wrangler d1 migrations apply DB --remote (applies only the new ones)",
  run: () => {
    mustWrangler("d1", "migrations", "apply", "DB", "--remote");
    return "D1 migrations: applied (remote)";
  },
};

function secrets(): Step {
  const names = Object.keys(generateDevVars());
  return {
    plan: `secrets ${names.join(", ")}: generate those \`wrangler secret list\` lacks, put them with one \`wrangler secret bulk\``,
    run() {
      const have = new Set(
        (JSON.parse(wrangler("secret", "list", "--format", "json") ?? "[]") as { name: string }[]).map((s) => s.name),
      );
      const fresh = generateDevVars() as unknown as Record<string, string>;
      // A key pair is put whole: a new private key with an old public key would verify nothing.
      const missing = names.filter(
        (n) => !have.has(n) || SECRET_PAIRS.some((p) => p.includes(n) && p.some((m) => !have.has(m))),
      );
      if (missing.length === 0) return `secrets: all ${names.length} present, none changed`;
      const values = Object.fromEntries(missing.map((n) => [n, fresh[n]]));
      const dir = join(".local", "cloudflare");
      mkdirSync(dir, { recursive: true });
      const saved = join(dir, `${label}.secrets.json`);
      writeFileSync(saved, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
      const file = join(tmpdir(), `secrets-${process.pid}.json`);
      writeFileSync(file, JSON.stringify(values), { mode: 0o600 });
      try {
        mustWrangler("secret", "bulk", file);
      } finally {
        rmSync(file, { force: true });
      }
      return `secrets: put ${missing.join(", ")} (values in ${saved})`;
    },
  };
}

const steps: Step[] = [
  database(target),
  ...target.queues.map((q) => resource("queues", q)),
  ...target.buckets.map((b) => resource("r2 bucket", b)),
  migrations,
  secrets(),
];

console.log(
  `setup:cloudflare: ${label} (Worker ${target.worker}, ${config})${dryRun ? " — dry run, nothing is called" : ""}`,
);
for (const step of steps) console.log(dryRun ? `  plan: ${step.plan}` : `  ${step.run()}`);
if (dryRun && target.database.id === PLACEHOLDER_ID)
  console.log(`  note: ${config} still has the placeholder database_id; setup writes the real one`);
console.log(
  dryRun
    ? "setup:cloudflare: dry run done"
    : `setup:cloudflare: done; next: npm run deploy${envName ? ` -- --env ${envName}` : ""}`,
);
