/**
 * API benchmark (not a test): drives a running local server and prints p50/p99 latency and throughput of
 *   GET /v1/open/video-jobs/{jobId}, GET /v1/open/video-jobs, POST /v1/open/videos
 * each as a ratio to a trivial route (GET /health/live) measured on the same server in the same run.
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
 *
 * The local stack runs the job pipeline (queue consumer, renderer, its callbacks) on the same cores as the
 * API, so every scenario starts once the bench's jobs have settled, and POST /videos is measured in rounds of
 * `--concurrency` requests, each round's jobs settling before the next (throughput over the rounds' own time).
 * "POST /videos (pipeline busy)" is the old way, the jobs' processing overlapping the requests: it measures
 * how fast the local renderer takes jobs as much as the API (docs/architecture.md "API speed").
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Result, run as runAt, runInRounds, stats } from "./lib/bench-http";
import { parseDevVars } from "./lib/dev-vars";

const READ_BURST = 40;
const CREATIONS_PER_MINUTE = 20;
const AUDIO_URL = "https://bench-audio.invalid/voice.mp3";

/** A job is settled once neither queued nor processing; the bench waits at most this long for its jobs. */
const SETTLE_TIMEOUT_MS = 180_000;

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "400" },
    concurrency: { type: "string", default: "8" },
    posts: { type: "string", default: "100" },
    "avatar-id": { type: "string" },
  },
});
const intArg = (name: "requests" | "concurrency" | "posts", max: number) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return n;
};

const BASE_URL = (process.env.BASE_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const REQUESTS = intArg("requests", 5000);
const CONCURRENCY = intArg("concurrency", 64);
const POSTS = intArg("posts", 1000);
const PERSIST_TO = process.env.PERSIST_TO ?? ".wrangler/state";

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host))
    throw new Error(`BASE_URL must be a loopback address (got ${host})`);
}

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const path = join(process.cwd(), ".dev.vars");
  const token = existsSync(path) ? parseDevVars(readFileSync(path, "utf8")).ADMIN_TOKEN : undefined;
  if (!token)
    throw new Error("ADMIN_TOKEN not set and not found in ./.dev.vars (start the stack with `npm start` first)");
  return token;
}

/** One API call; `T` is the shape of its JSON answer on success (callers check the status before reading it). */
async function call<T>(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

interface Account {
  accountId: string;
  headers: Record<string, string>;
}

async function createAccount(token: string, i: number): Promise<Account> {
  const auth = { Authorization: `Bearer ${token}` };
  const acct = await call<{ account: { id: string } }>("POST", "/v1/admin/accounts", auth, {
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
  const app = await call<{ app: { id: string }; apiKey: string }>(
    "POST",
    `/v1/admin/accounts/${acct.body.account.id}/apps`,
    auth,
    { name: "bench" },
  );
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
  const r = spawnSync(wrangler, ["d1", "execute", "DB", "--local", "--persist-to", PERSIST_TO, "--command", sql], {
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(
      `could not insert the bench Avatar into local D1:\n${r.stderr || r.stdout}\nPass --avatar-id instead.`,
    );
  return id;
}

const run = (name: string, count: number, make: Parameters<typeof runAt>[3]): Promise<Result> =>
  runAt(name, count, CONCURRENCY, make);

/** Waits until none of these accounts has a job queued or processing; returns the seconds waited. */
async function settle(accounts: Account[]): Promise<number> {
  const started = performance.now();
  let pending = accounts;
  while (pending.length > 0) {
    if (performance.now() - started > SETTLE_TIMEOUT_MS)
      throw new Error(`jobs still queued or processing after ${SETTLE_TIMEOUT_MS / 1000} s (is the renderer running?)`);
    const busy: Account[] = [];
    for (const acct of pending) {
      const r = await call<{ jobs: unknown[] }>(
        "GET",
        "/v1/open/video-jobs?statuses=queued&statuses=processing&pagination.pageSize=1",
        acct.headers,
      );
      if (r.status !== 200) throw new Error(`settle: GET /video-jobs ${r.status} ${JSON.stringify(r.body)}`);
      if (r.body.jobs.length > 0) busy.push(acct);
    }
    pending = busy;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 250));
  }
  return (performance.now() - started) / 1000;
}

async function main() {
  assertLoopback(BASE_URL);
  const token = adminToken();
  const health = await fetch(`${BASE_URL}/health/live`).catch(() => null);
  if (!health?.ok) throw new Error(`no server at ${BASE_URL} (start it with \`npm start\`)`);

  // Fresh accounts per scenario so each fits the per-account limits.
  const perReadScenario = Math.ceil(REQUESTS / READ_BURST);
  const postAccounts = Math.ceil(POSTS / CREATIONS_PER_MINUTE);
  const total = 2 * perReadScenario + 2 * postAccounts;
  console.log(
    `bench:api → ${BASE_URL}: creating ${total} accounts (reads ${REQUESTS} per scenario, posts ${POSTS}, concurrency ${CONCURRENCY})`,
  );
  const accounts: Account[] = [];
  for (let i = 0; i < total; i++) accounts.push(await createAccount(token, i));
  const detailAccounts = accounts.slice(0, perReadScenario);
  const listAccounts = accounts.slice(perReadScenario, 2 * perReadScenario);
  const postingAccounts = accounts.slice(2 * perReadScenario, 2 * perReadScenario + postAccounts);
  const busyPostingAccounts = accounts.slice(2 * perReadScenario + postAccounts);

  const avatarId = args["avatar-id"] ?? insertPublicAvatar(accounts[0]!.accountId);

  // Seed (not measured): one job per detail account, five per list account.
  const jobOf = new Map<Account, string>();
  for (const [acct, n] of [
    ...detailAccounts.map((a) => [a, 1] as const),
    ...listAccounts.map((a) => [a, 5] as const),
  ]) {
    for (let k = 0; k < n; k++) {
      const r = await call<{ jobId: string }>("POST", "/v1/open/videos", acct.headers, {
        avatarId,
        audioUrl: AUDIO_URL,
        name: "bench seed",
      });
      if (r.status !== 200) throw new Error(`seed POST /videos: ${r.status} ${JSON.stringify(r.body)}`);
      jobOf.set(acct, r.body.jobId);
    }
  }

  const get = (url: string, headers: Record<string, string> = {}) => ({ url, init: { headers } });
  const seeded = [...detailAccounts, ...listAccounts];
  const waits: number[] = [await settle(seeded)];
  // Warm-up of every path (not measured; on the trivial route so no read budget is used).
  await run("warm-up", 50, () => get(`${BASE_URL}/health/live`));

  const trivial = await run("GET /health/live (trivial)", REQUESTS, () => get(`${BASE_URL}/health/live`));
  waits.push(await settle(seeded));
  const detail = await run("GET /video-jobs/{jobId}", REQUESTS, (i) => {
    const acct = detailAccounts[i % detailAccounts.length]!;
    return get(`${BASE_URL}/v1/open/video-jobs/${jobOf.get(acct)}`, acct.headers);
  });
  waits.push(await settle(seeded));
  const list = await run("GET /video-jobs", REQUESTS, (i) => {
    const acct = listAccounts[i % listAccounts.length]!;
    return get(`${BASE_URL}/v1/open/video-jobs?pagination.pageSize=20`, acct.headers);
  });
  waits.push(await settle(seeded));
  const trivialPost = await run("GET /health/live (trivial, for POST)", POSTS, () => get(`${BASE_URL}/health/live`));
  const createOn = (accts: Account[]) => (i: number) => {
    const acct = accts[i % accts.length]!;
    return {
      url: `${BASE_URL}/v1/open/videos`,
      init: {
        method: "POST",
        headers: { ...acct.headers, "Content-Type": "application/json" },
        body: JSON.stringify({
          avatarId,
          audioUrl: AUDIO_URL,
          requestId: randomUUID(),
          video: { width: 640, height: 360 },
        }),
      },
    };
  };
  // Each round's jobs settle before the next round: the API measured without the pipeline's work alongside.
  const create = await runInRounds("POST /videos", POSTS, CONCURRENCY, createOn(postingAccounts), (round) =>
    settle([...new Set(round.map((i) => postingAccounts[i % postingAccounts.length]!))]),
  );
  const createBusy = await run("POST /videos (pipeline busy)", POSTS, createOn(busyPostingAccounts));
  waits.push(await settle(busyPostingAccounts));
  const trivialAfter = await run("GET /health/live (trivial, again)", REQUESTS, () => get(`${BASE_URL}/health/live`));

  const fmt = (n: number, d = 2) => n.toFixed(d).padStart(9);
  const base = stats(trivial);
  const basePost = stats(trivialPost);
  console.log(
    `\n${"route".padEnd(32)}${"n".padStart(6)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"req/s".padStart(9)}  ${"p50×".padStart(7)}${"p99×".padStart(7)}${"thr×".padStart(7)}  statuses`,
  );
  for (const [r, ref] of [
    [trivial, base],
    [detail, base],
    [list, base],
    [trivialPost, basePost],
    [create, basePost],
    [createBusy, basePost],
    [trivialAfter, base],
  ] as const) {
    const s = stats(r);
    console.log(
      `${r.name.padEnd(32)}${String(r.count).padStart(6)}${fmt(s.p50)}${fmt(s.p99)}${fmt(s.rps, 0)}  ${(s.p50 / ref.p50).toFixed(2).padStart(7)}${(s.p99 / ref.p99).toFixed(2).padStart(7)}${(s.rps / ref.rps).toFixed(2).padStart(7)}  ${[...r.statuses].map(([k, v]) => `${k}:${v}`).join(" ")}`,
    );
  }
  console.log(
    "\nRatios: p50×/p99× = latency relative to the trivial route (lower is better); thr× = throughput relative to it.",
  );
  console.log(
    `Waited for the bench's jobs to settle before the scenarios: ${waits.map((s) => s.toFixed(1)).join(", ")} s.`,
  );
  const limited = [detail, list, create, createBusy].reduce((n, r) => n + (r.statuses.get(429) ?? 0), 0);
  if (limited)
    console.log(
      `Note: ${limited} requests were rate limited (429); raise the account count or lower --requests/--posts.`,
    );
}

main().catch((err) => {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
});
