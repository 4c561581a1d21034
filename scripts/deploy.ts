/**
 * `npm run deploy [-- --env staging]`: applies new remote D1 migrations, then `wrangler deploy` (the Worker and
 * the renderer image; building the image needs a Docker engine). Refuses while wrangler.toml still has the
 * placeholder database id: `npm run setup:cloudflare` comes first. The public origin comes from wrangler.toml
 * [vars] or from $PUBLIC_BASE_URL (passed as --var); without one the Worker would refuse background work, so
 * deploy refuses first. Other arguments go to wrangler deploy.
 */
import { execFileSync } from "node:child_process";
import { PLACEHOLDER_ID, readWranglerEnv } from "./lib/wrangler-env";

const args = process.argv.slice(2);
const at = args.indexOf("--env");
const envName = at >= 0 ? (args[at + 1] ?? "") : "";
const rest = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
const target = readWranglerEnv("wrangler.toml", envName);
if (target.database.id === PLACEHOLDER_ID) {
  console.error(
    `deploy: wrangler.toml has no database id for ${envName || "production"}; run npm run setup:cloudflare${envName ? ` -- --env ${envName}` : ""} first`,
  );
  process.exit(2);
}
const origin = process.env.PUBLIC_BASE_URL?.trim() || target.publicBaseUrl;
if (!/^https:\/\/[^/]+/.test(origin)) {
  console.error(
    "deploy: PUBLIC_BASE_URL must be the Worker's https:// origin: PUBLIC_BASE_URL=https://… npm run deploy",
  );
  process.exit(2);
}
const vars = process.env.PUBLIC_BASE_URL?.trim() ? ["--var", `PUBLIC_BASE_URL:${origin}`] : [];
// --env= (empty) names the top level explicitly: wrangler warns when several environments exist and none is named.
const run = (...cmd: string[]) => execFileSync("wrangler", [...cmd, `--env=${envName}`], { stdio: "inherit" });
run("d1", "migrations", "apply", "DB", "--remote");
run("deploy", ...vars, ...rest);
