/**
 * API benchmark (not a test): drives a running local server and prints p50/p99 latency and throughput of
 *   GET /v1/open/video-jobs/{jobId}, GET /v1/open/video-jobs, POST /v1/open/videos
 * each as a ratio to a trivial route (GET /health) measured on the same server in the same run.
 *
 *   npm run bench:api [-- --requests 400 --concurrency 8 --posts 100 --avatar-id UUID]
 *
 * BASE_URL (default http://127.0.0.1:8787) must be a loopback address. ADMIN_TOKEN comes from the
 * environment or ./.dev.vars (written by `npm start`).
 *
 * Limits are real (spec ceilings: 20 reads/s with burst 40 per account and family, 20 video creations per
 * minute per account), so the load is spread over fresh accounts created through the admin API: each read
 * scenario gets enough accounts that its requests fit their bursts, the POST scenario 20 requests per
 * account. Any 429 is counted and reported, never hidden. The Avatar used by the videos is inserted once
 * as a public console Avatar into the local D1 (wrangler d1 execute --local), unless --avatar-id is given.
 * Created jobs use an unresolvable audio host, so a running renderer fails them quickly.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDevVars } from "./lib/dev-vars";

const READ_BURST = 40;
const CREATIONS_PER_MINUTE = 20;
const AUDIO_URL = "https://bench-audio.invalid/voice.mp3";

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}
const intArg = (name: string, def: number, max: number) => {
  const n = Number(arg(name, String(def)));
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return n;
};

const BASE_URL = (process.env.BASE_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const REQUESTS = intArg("requests", 400, 5000);
const CONCURRENCY = intArg("concurrency", 8, 64);
const POSTS = intArg("posts", 100, 1000);
const PERSIST_TO = process.env.PERSIST_TO ?? ".wrangler/state";

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) throw new Error(`BASE_URL must be a loopback address (got ${host})`);
}

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const path = join(process.cwd(), ".dev.vars");
  const token = existsSync(path) ? parseDevVars(readFileSync(path, "utf8")).ADMIN_TOKEN : undefined;
  if (!token) throw new Error("ADMIN_TOKEN not set and not found in ./.dev.vars (start the stack with `npm start` first)");
  return token;
}

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

interface Account {
  accountId: string;
  headers: Record<string, string>;
}

async function createAccount(token: string, i: number): Promise<Account> {
  const auth = { Authorization: `Bearer ${token}` };
  const acct = await call("POST", "/v1/admin/accounts", auth, {
    name: `bench-api ${new Date().toISOString()} #${i}`,
    openApiAccess: true,
    avatarCreationEnabled: true,
    videoAccess: true,
    videoCreationEnabled: true,
    limits: {
      video: { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 },
    },
  });
  if (acct.status !== 201) throw new Error(`create account: ${acct.status} ${JSON.stringify(acct.body)}`);
  const app = await call("POST", `/v1/admin/accounts/${acct.body.account.id}/apps`, auth, { name: "bench" });
  if (app.status !== 201) throw new Error(`create app: ${app.status} ${JSON.stringify(app.body)}`);
  return { accountId: acct.body.account.id, headers: { "X-App-ID": app.body.app.id, "X-API-Key": app.body.apiKey } };
}

/** A public console Avatar in the local D1, usable by every bench account. */
function insertPublicAvatar(ownerAccountId: string): string {
  const id = randomUUID();
  const now = Date.now();
  const sql =
    "INSERT INTO avatars (id, account_id, name, origin, is_public, portrait_key, rig_key, cover_key, created_at, updated_at) " +
    `VALUES ('${id}', '${ownerAccountId}', 'bench avatar', 'console', 1, 'avatars/${id}/portrait.png', 'avatars/${id}/rig.json', 'avatars/${id}/cover.jpg', ${now}, ${now})`;
  const wrangler = join(process.cwd(), "node_modules", ".bin", "wrangler");
  const r = spawnSync(wrangler, ["d1", "execute", "DB", "--local", "--persist-to", PERSIST_TO, "--command", sql], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`could not insert the bench Avatar into local D1:\n${r.stderr || r.stdout}\nPass --avatar-id instead.`);
  return id;
}

interface Result {
  name: string;
  count: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
}

/** `count` requests, `concurrency` at a time; `make(i)` builds request i. Latency includes reading the body. */
async function run(name: string, count: number, make: (i: number) => { url: string; init: RequestInit }): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, count) }, async () => {
      for (let i = next++; i < count; i = next++) {
        const { url, init } = make(i);
        const t0 = performance.now();
        const res = await fetch(url, init);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return { name, count, seconds: (performance.now() - started) / 1000, latencies, statuses };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function stats(r: Result) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: r.count / r.seconds };
}

async function main() {
  assertLoopback(BASE_URL);
  const token = adminToken();
  const health = await fetch(`${BASE_URL}/health`).catch(() => null);
  if (!health?.ok) throw new Error(`no server at ${BASE_URL} (start it with \`npm start\`)`);

  // Fresh accounts per scenario so each fits the per-account limits.
  const perReadScenario = Math.ceil(REQUESTS / READ_BURST);
  const postAccounts = Math.ceil(POSTS / CREATIONS_PER_MINUTE);
  const total = 2 * perReadScenario + postAccounts;
  console.log(`bench:api → ${BASE_URL}: creating ${total} accounts (reads ${REQUESTS} per scenario, posts ${POSTS}, concurrency ${CONCURRENCY})`);
  const accounts: Account[] = [];
  for (let i = 0; i < total; i++) accounts.push(await createAccount(token, i));
  const detailAccounts = accounts.slice(0, perReadScenario);
  const listAccounts = accounts.slice(perReadScenario, 2 * perReadScenario);
  const postingAccounts = accounts.slice(2 * perReadScenario);

  const avatarId = process.argv.includes("--avatar-id") ? arg("avatar-id", "") : insertPublicAvatar(accounts[0]!.accountId);

  // Seed (not measured): one job per detail account, five per list account.
  const jobOf = new Map<Account, string>();
  for (const [acct, n] of [...detailAccounts.map((a) => [a, 1] as const), ...listAccounts.map((a) => [a, 5] as const)]) {
    for (let k = 0; k < n; k++) {
      const r = await call("POST", "/v1/open/videos", acct.headers, { avatarId, audioUrl: AUDIO_URL, name: "bench seed" });
      if (r.status !== 200) throw new Error(`seed POST /videos: ${r.status} ${JSON.stringify(r.body)}`);
      jobOf.set(acct, r.body.jobId);
    }
  }

  const get = (url: string, headers: Record<string, string> = {}) => ({ url, init: { headers } });
  // Warm-up of every path (not measured; on the trivial route so no read budget is used).
  await run("warm-up", 50, () => get(`${BASE_URL}/health`));

  const trivial = await run("GET /health (trivial)", REQUESTS, () => get(`${BASE_URL}/health`));
  const detail = await run("GET /video-jobs/{jobId}", REQUESTS, (i) => {
    const acct = detailAccounts[i % detailAccounts.length]!;
    return get(`${BASE_URL}/v1/open/video-jobs/${jobOf.get(acct)}`, acct.headers);
  });
  const list = await run("GET /video-jobs", REQUESTS, (i) => {
    const acct = listAccounts[i % listAccounts.length]!;
    return get(`${BASE_URL}/v1/open/video-jobs?pagination.pageSize=20`, acct.headers);
  });
  const trivialPost = await run("GET /health (trivial, for POST)", POSTS, () => get(`${BASE_URL}/health`));
  const create = await run("POST /videos", POSTS, (i) => {
    const acct = postingAccounts[i % postingAccounts.length]!;
    return {
      url: `${BASE_URL}/v1/open/videos`,
      init: {
        method: "POST",
        headers: { ...acct.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ avatarId, audioUrl: AUDIO_URL, requestId: randomUUID(), video: { width: 640, height: 360 } }),
      },
    };
  });
  const trivialAfter = await run("GET /health (trivial, again)", REQUESTS, () => get(`${BASE_URL}/health`));

  const fmt = (n: number, d = 2) => n.toFixed(d).padStart(9);
  const base = stats(trivial);
  const basePost = stats(trivialPost);
  console.log(`\n${"route".padEnd(32)}${"n".padStart(6)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"req/s".padStart(9)}  ${"p50×".padStart(7)}${"p99×".padStart(7)}${"thr×".padStart(7)}  statuses`);
  for (const [r, ref] of [
    [trivial, base],
    [detail, base],
    [list, base],
    [trivialPost, basePost],
    [create, basePost],
    [trivialAfter, base],
  ] as const) {
    const s = stats(r);
    console.log(
      `${r.name.padEnd(32)}${String(r.count).padStart(6)}${fmt(s.p50)}${fmt(s.p99)}${fmt(s.rps, 0)}  ${(s.p50 / ref.p50).toFixed(2).padStart(7)}${(s.p99 / ref.p99).toFixed(2).padStart(7)}${(s.rps / ref.rps).toFixed(2).padStart(7)}  ${[...r.statuses].map(([k, v]) => `${k}:${v}`).join(" ")}`,
    );
  }
  console.log("\nRatios: p50×/p99× = latency relative to the trivial route (lower is better); thr× = throughput relative to it.");
  const limited = [detail, list, create].reduce((n, r) => n + (r.statuses.get(429) ?? 0), 0);
  if (limited) console.log(`Note: ${limited} requests were rate limited (429); raise the account count or lower --requests/--posts.`);
}

main().catch((err) => {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
});
