/**
 * npm run bench:motion — live motion service under load, on this machine.
 *
 * Starts its own local stack (or uses --base-url), creates an Avatar from a fixture portrait, then for each
 * concurrency level opens that many connections, then streams speech on all of them in real time
 * (--chunk-ms PCM16 chunks at --rate, default 20 ms at 16 kHz; packages/motion-client's AudioWorklet sends 20 ms
 * at the browser's rate, usually 48 or 44.1 kHz; each connection at its own phase within a chunk, as independent
 * microphones are) and prints:
 *   latency  p50/p99 from sending the audio chunk that completes a frame's audio (its 40 ms plus the 71 ms
 *            look-ahead) to receiving that frame, both timed in this process — network, Worker, Durable
 *            Object and analysis included;
 *   fps      frames per second delivered per connection while streaming (goal 25.0);
 *   cpu      CPU per connection in % of one core while streaming, by process (from /proc): the workerd
 *            running the Worker and its objects, wrangler's dev proxy, node (wrangler, renderer), and this
 *            client; then the busiest workerd thread (local workerd runs every object on one thread), also as
 *            its CPU per frame it delivered × 25 fps: what a connection costs the thread even when the machine
 *            is too loaded for it to keep up (then the other figures say more about the load than the service).
 * The client does not offer permessage-deflate (the deployed service declines it; wrangler dev's proxy would
 * accept it): `--offer-deflate` offers it as browsers do. `--flood` adds a client pushing audio at network speed on
 * its own account (scripts/lib/motion-flooder.ts); each level then runs `--rounds` times without and with it,
 * side by side, and the honest clients' p99 per round is printed for both, with the count of honest latencies
 * over 4 ms and which of the flooder's events each followed. `--flood-controls` adds its two controls to each
 * round (its token mints alone; token requests with an unknown key; GET /health/live at that rate; the flooder against
 * a stand-in server: its own CPU alone); `--request-costs`
 * first prints the stack's CPU per request of the flooder's kinds. Prints figures; asserts nothing. On a shared
 * machine run it 2-3 times and read the load averages it prints; scripts/bench-motion-cpu.ts counts the
 * analysis's instructions, which no load changes.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { ensureDevVars } from "./lib/dev-vars";
import { type FloodMode, spikesAfterEvents, startFlooder, threadCpu } from "./lib/motion-flooder";
import { cpuByRole, cpuByThread, stackRoles } from "./lib/proc-cpu";
import { startStack } from "./lib/stack";
import { ANALYSIS_RATE } from "@avatar-video/motion-model";
import { StreamResampler } from "../packages/motion-model/src/resample";
import { speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";

const { values: args } = parseArgs({
  options: {
    "base-url": { type: "string" },
    port: { type: "string", default: "8856" },
    levels: { type: "string", default: "1,20,100" },
    seconds: { type: "string", default: "12" },
    "chunk-ms": { type: "string", default: "20" },
    // The clients' sample rate: browsers capture at 44.1 or 48 kHz and send that (the service resamples to 16 kHz).
    rate: { type: "string", default: "16000" },
    // wrangler dev records a trace of every event (each WebSocket message) into a local SQLite store by default.
    "local-observability": { type: "boolean", default: false },
    // Offer permessage-deflate as browsers do (the service declines it; wrangler dev's proxy accepts it).
    "offer-deflate": { type: "boolean", default: false },
    // One more client (its own account, its own thread) pushing 64 KiB audio messages at network speed.
    flood: { type: "boolean", default: false },
    // With --flood: each level runs this many rounds, each without and with the flooder (side by side).
    rounds: { type: "string", default: "1" },
    // With --flood: also run the flooder's two controls each round (scripts/lib/motion-flooder.ts).
    "flood-controls": { type: "boolean", default: false },
    // With --flood: first, the stack's CPU per request of the kinds a flooder makes, one after another, no load.
    "request-costs": { type: "boolean", default: false },
  },
});
const RATE = Number(args.rate);
const CHUNK_MS = Number(args["chunk-ms"]);
const CHUNK = (RATE * CHUNK_MS) / 1000;
const port = Number(args.port);
const levels = args.levels!.split(",").map(Number);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
/** Honest latencies above this count as spikes, timed against the flooder's events. */
const SPIKE_MS = 4;

// ---- stack, accounts, Avatar --------------------------------------------------------------------------
const vars = ensureDevVars(".dev.vars");
// A development-only recorder (wrangler's X_LOCAL_OBSERVABILITY, on by default) streams every event of the
// Worker — here every WebSocket message — into a tail worker that writes SQLite: ~30 % of the runtime's CPU
// under load (perf, docs/motion.md). It is not part of the service; off unless --local-observability.
process.env.X_LOCAL_OBSERVABILITY ??= args["local-observability"] ? "true" : "false";
const media = createServer((_, res) => {
  res.writeHead(200, { "Content-Type": "image/jpeg" });
  res.end(readFileSync("test/fixtures/portraits/single-camera.jpg"));
}).listen(port + 2, "127.0.0.1");
const stack = args["base-url"]
  ? undefined
  : await startStack({
      port,
      rendererPort: port + 1,
      persistTo: `.local/bench-motion-${port}`,
      sourceAllowlist: `127.0.0.1:${port + 2}`,
      vars,
    });
const base = args["base-url"] ?? stack!.baseUrl;

/** One API call that must succeed; `T` is the shape of its JSON answer. */
async function call<T = unknown>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { "Content-Type": "application/json", ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}
const admin = { Authorization: `Bearer ${vars.ADMIN_TOKEN}` };
const ceil = { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 };
async function newApp() {
  const { account } = await call<{ account: { id: string } }>("/v1/admin/accounts", {
    headers: admin,
    body: {
      name: "bench",
      openApiAccess: true,
      avatarCreationEnabled: true,
      videoAccess: true,
      videoCreationEnabled: true,
      avatarUnits: 2,
      limits: { avatar: { ...ceil, concurrent: 10 }, video: ceil },
    },
  });
  const { app, apiKey } = await call<{ app: { id: string }; apiKey: string }>(`/v1/admin/accounts/${account.id}/apps`, {
    headers: admin,
    body: { name: "bench" },
  });
  return { "X-App-ID": app.id as string, "X-API-Key": apiKey as string };
}
// The per-account limit is 10 connections: one account per 10 connections, all using one public Avatar.
const apps = await Promise.all(Array.from({ length: Math.ceil(Math.max(...levels) / 10) }, newApp));
const flooderApp = args.flood ? await newApp() : undefined;
const { jobId } = await call<{ jobId: string }>("/v1/open/avatars", {
  headers: apps[0],
  body: { imageUrl: `http://127.0.0.1:${port + 2}/portrait.jpg` },
});
let avatarId = "";
for (;;) {
  const { job } = await call<{ job: { status: string; avatarId: string; error?: unknown } }>(
    `/v1/open/avatar-jobs/${jobId}`,
    { headers: apps[0] },
  );
  if (job.status === "succeeded") {
    avatarId = job.avatarId;
    break;
  }
  if (job.status === "failed") throw new Error(`Avatar creation failed: ${JSON.stringify(job.error)}`);
  await new Promise((r) => setTimeout(r, 500));
}
await call(`/v1/admin/avatars/${avatarId}/access`, { method: "PUT", headers: admin, body: { public: true } });

// ---- audio ------------------------------------------------------------------------------------------
const speech = synthSpeech(speechLike(seconds, 3), RATE);
const pcm = Buffer.alloc(speech.length * 2);
speech.forEach((x, i) => pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x * 32767))), i * 2));
/**
 * Input sample (index) that completes frame n: stream.ts interpolates analysis frames 4n+4 and 4n+5 (50 ms lip
 * lead) and smooths frame 4n+5 once frame 4n+9 is analysed (4 frames of plosive look-ahead), whose window
 * ends at sample (4n+9)·160 + 80 + 256: 71 ms of look-ahead past the frame's 40 ms. At another rate, the
 * input sample there plus the resampler's own look-ahead.
 */
const lookahead = new StreamResampler(RATE, ANALYSIS_RATE).lookaheadSeconds * RATE;
const completingSample = (n: number) => Math.floor(((640 * n + 1775) * RATE) / ANALYSIS_RATE) + lookahead;

// ---- one level --------------------------------------------------------------------------------------
async function open(headers: Record<string, string>) {
  const { sessionToken } = await call<{ sessionToken: string }>("/v1/console/session-tokens", {
    headers: { "X-API-Key": headers["X-API-Key"]! },
    body: { expireAt: Math.floor(Date.now() / 1000) + 300 },
  });
  const ws = new WebSocket(
    `${base.replace(/^http/, "ws")}/v1/motion?avatarId=${avatarId}`,
    ["motion.v1", `token.${sessionToken}`],
    { perMessageDeflate: args["offer-deflate"] },
  );
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  extensions ||= ws.extensions || "none";
  return ws;
}
let extensions = "";

/** Streams the speech in real time from `startAt` (performance.now() time base); records every frame. */
async function stream(ws: WebSocket, startAt: number) {
  const sentAt: number[] = [];
  const latencies: number[] = [];
  /** Wall-clock arrival (performance.timeOrigin based) of each latency sample, to correlate with the flood. */
  const arrivals: number[] = [];
  let streamingFrames = 0;
  // Idle frames (the audio received fell short of real time, e.g. the client stalled) take no audio time.
  let idle = 0;
  let firstAt = 0;
  let lastAt = 0;
  let done = false;
  ws.on("message", (data) => {
    const now = performance.now();
    const m = JSON.parse(String(data));
    if (m.type !== "motion" || done) return;
    if (m.idle) return void idle++;
    streamingFrames++;
    lastAt = now;
    firstAt ||= now;
    const sent = sentAt[Math.floor(completingSample(m.audioMs / 40) / CHUNK)];
    if (sent !== undefined) {
      latencies.push(now - sent);
      arrivals.push(performance.timeOrigin + now);
    }
  });
  const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
  ws.send(JSON.stringify({ type: "start", sampleRate: RATE }));
  for (let k = 0; k * CHUNK * 2 < pcm.length; k++) {
    const wait = startAt + k * CHUNK_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sentAt[k] = performance.now();
    ws.send(pcm.subarray(k * CHUNK * 2, (k + 1) * CHUNK * 2));
  }
  // Frames still due for the audio sent (its look-ahead) arrive within a chunk or two; then stop.
  await new Promise((r) => setTimeout(r, 3 * CHUNK_MS));
  done = true;
  ws.send(JSON.stringify({ type: "stop" }));
  // Delivery rate while audio streams in: frames of audio between the first and the last one received.
  const fps = (streamingFrames - 1) / ((lastAt - firstAt) / 1000);
  return { latencies, arrivals, idle, frames: streamingFrames + idle, fps, closed };
}

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? NaN;
};
const perConn = (seconds: number, wall: number, n: number) => `${((seconds / wall / n) * 100).toFixed(2)} %`;
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

console.log(
  `motion bench: ${seconds} s of speech per connection, ${CHUNK_MS} ms PCM16 chunks at ${RATE / 1000} kHz (${1000 / CHUNK_MS} messages/s in, 25 frames/s out), stack ${base}` +
    (stack ? `, wrangler local observability ${process.env.X_LOCAL_OBSERVABILITY}` : ""),
);
console.log(`load average before: ${loadavg()}; ${(await import("node:os")).cpus().length} cores`);
console.log(
  "connections | latency p50 | latency p99 | fps/conn (min–mean) | CPU per connection (% of a core): stack total = workerd Worker+objects + dev proxy + node; bench client | closes",
);
const detail: string[] = [];
/** Honest p99 per level, without and with the flooder (--flood --rounds N). */
const p99s = new Map<string, number[]>();

/** One run of `n` honest connections, alone or with the flooding client (or one of its controls) beside them. */
async function runLevel(n: number, variant: "alone" | FloodMode, label: string) {
  const sockets = await Promise.all(Array.from({ length: n }, (_, i) => open(apps[Math.floor(i / 10)]!)));
  const flooder =
    variant === "alone"
      ? undefined
      : await startFlooder({
          mode: variant,
          base,
          avatarId,
          apiKey: flooderApp!["X-API-Key"]!,
          audio: Uint8Array.from(pcm.subarray(0, 2 * 2 * RATE)),
          sampleRate: RATE,
        });
  const roles = stack ? stackRoles(port) : {};
  const c0 = cpuByRole(roles);
  const workerPid = roles["workerd: Worker + objects"]?.[0];
  const t0Threads = workerPid ? cpuByThread(workerPid) : new Map<number, number>();
  const main0 = threadCpu();
  flooder?.start();
  const w0 = performance.now();
  // Independent clients: each starts at its own phase within one chunk, as real microphones do.
  const results = await Promise.all(sockets.map((ws, i) => stream(ws, w0 + 50 + (i * CHUNK_MS) / n)));
  const wall = (performance.now() - w0) / 1000;
  const mainCpu = threadCpu() - main0;
  const c1 = cpuByRole(roles);
  const busiest = workerPid
    ? Math.max(...[...cpuByThread(workerPid)].map(([tid, s]) => s - (t0Threads.get(tid) ?? 0)))
    : NaN;
  // The busiest thread's CPU per 40 ms frame it delivered, as % of a core for a connection at 25 fps: what a
  // connection costs even when a loaded machine leaves the thread too little time to keep up.
  const delivered = results.reduce((s, r) => s + r.frames, 0);
  const perFrame = `${((busiest / (delivered / 25)) * 100).toFixed(2)} % per connection at 25 fps (its CPU per frame delivered)`;
  const flood = await flooder?.stop();
  const samples = results.flatMap((r) => r.latencies.map((latency, i) => ({ latency, at: r.arrivals[i]! })));
  const spikes = `${samples.filter((x) => x.latency > SPIKE_MS).length} latencies > ${SPIKE_MS} ms`;
  detail.push(
    `${label}: honest clients' thread ${mainCpu.toFixed(2)} s CPU; ${spikes}` +
      (flood
        ? `; ${variant}: ${flood.attempts} attempts, ${flood.connections} connections, ${flood.messages} audio messages (${(flood.bytes / 1024 / 1024).toFixed(1)} MiB), refused ${JSON.stringify(flood.refused)}, closes ${JSON.stringify(flood.closes)}, its thread ${flood.cpu.toFixed(2)} s CPU; ${spikesAfterEvents(samples, flood.events, SPIKE_MS)}`
        : ""),
  );
  const codes = [...new Set(await Promise.all(results.map((r) => r.closed)))].join(",");
  const d = Object.fromEntries(Object.keys(c1).map((k) => [k, c1[k]! - (c0[k] ?? 0)]));
  const stackCpu = Object.entries(d)
    .filter(([k]) => k !== "bench client")
    .reduce((s, [, v]) => s + v, 0);
  const lat = results.flatMap((r) => r.latencies);
  const fps = results.map((r) => r.fps);
  const idle = results.reduce((s, r) => s + r.idle, 0);
  const key = `${n} ${variant}`;
  p99s.set(key, [...(p99s.get(key) ?? []), pct(lat, 0.99)]);
  console.log(
    `${label.padStart(11)} | ${pct(lat, 0.5).toFixed(1).padStart(8)} ms | ${pct(lat, 0.99).toFixed(1).padStart(8)} ms | ` +
      `${Math.min(...fps).toFixed(1)}–${(fps.reduce((a, b) => a + b, 0) / n).toFixed(1)} | ` +
      (stack
        ? `${perConn(stackCpu, wall, n)} = ${Object.entries(d)
            .filter(([k]) => k !== "bench client")
            .map(([, v]) => perConn(v, wall, n))
            .join(" + ")}; client ${perConn(d["bench client"]!, wall, n)}`
        : `client ${perConn(d["bench client"]!, wall, n)}`) +
      ` | ${codes}${idle ? ` | ${idle} idle frames (audio short of real time)` : ""}`,
  );
  if (stack)
    detail.push(
      `${label}, ${wall.toFixed(1)} s, load ${loadavg()}: ${Object.entries(d)
        .map(([k, v]) => `${k} ${((v / wall) * 100).toFixed(1)} %`)
        .join(", ")}; busiest workerd thread ${((busiest / wall) * 100).toFixed(1)} % of a core, ${perFrame}`,
    );
  await new Promise((r) => setTimeout(r, 1000));
}

/** --request-costs: CPU per request by stack process (the flooder's kinds, and any request's floor). */
async function requestCosts() {
  const roles = stackRoles(port);
  const each = async (name: string, n: number, op: () => Promise<unknown>) => {
    const answers = new Map<unknown, number>();
    const c0 = cpuByRole(roles);
    for (let i = 0; i < n; i++) {
      const a = await op();
      if (typeof a === "number") answers.set(a, (answers.get(a) ?? 0) + 1);
    }
    const c1 = cpuByRole(roles);
    const ms = (k: string) => `${(((c1[k]! - c0[k]!) / n) * 1000).toFixed(2)} ms`;
    const got = answers.size ? ` → ${[...answers].map(([a, k]) => `${k}× ${a}`).join(", ")}` : "";
    detail.push(
      `request costs, ${name} (${n} in a row${got}): ${Object.keys(c1)
        .map((k) => `${k} ${ms(k)}`)
        .join(", ")}`,
    );
  };
  const app = await newApp();
  const mint = () =>
    call<{ sessionToken: string }>("/v1/console/session-tokens", {
      headers: { "X-API-Key": app["X-API-Key"] },
      body: { expireAt: Math.floor(Date.now() / 1000) + 300 },
    });
  await each("GET /health/live (any request's floor)", 200, () =>
    fetch(`${base}/health/live`).then((r) => r.arrayBuffer()),
  );
  await each("token mint", 200, mint);
  await each("token request with an unknown key (401)", 200, () =>
    fetch(`${base}/v1/console/session-tokens`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": "unknown" },
      body: "{}",
    }).then((r) => r.arrayBuffer().then(() => r.status)),
  );
  // A connection closed for flooding: the account's reconnects are refused for 10 s, the token unspent.
  const flood = await open(app);
  flood.send(JSON.stringify({ type: "start", sampleRate: RATE }));
  flood.send(pcm.subarray(0, 2 * 2 * RATE));
  flood.send(pcm.subarray(0, 2 * 0.3 * RATE)); // past the 2 s and the 250 ms jitter allowance
  await new Promise((r) => flood.once("close", r));
  const { sessionToken } = await mint();
  const refused = () =>
    new Promise((resolve) => {
      const ws = new WebSocket(`${base.replace(/^http/, "ws")}/v1/motion?avatarId=${avatarId}`, [
        "motion.v1",
        `token.${sessionToken}`,
      ]);
      ws.once("unexpected-response", (_req, res) => resolve(res.resume().statusCode));
      ws.once("open", () => {
        ws.close();
        resolve(101);
      });
    });
  await each("reconnect refused in the flood cool-down (429)", 200, refused);
}

try {
  if (args["request-costs"] && stack) await requestCosts();
  for (const n of levels) {
    if (!flooderApp) {
      await runLevel(n, "alone", String(n));
      continue;
    }
    // Side by side: each round runs the level alone and with the flooder (and its controls), alternating the order.
    const variants: ("alone" | FloodMode)[] = args["flood-controls"]
      ? ["alone", "flood", "mints", "unknown-key", "health", "stub"]
      : ["alone", "flood"];
    for (let r = 1; r <= rounds; r++) {
      for (const v of r % 2 ? variants : variants.slice().reverse())
        await runLevel(n, v, `${n}${v === "alone" ? "" : v === "flood" ? "+flood" : `+${v}`} r${r}`);
    }
  }
} finally {
  // A failed level (e.g. a refused connection) must not leave the stack running.
  media.close();
  await stack?.stop();
}
for (const line of detail) console.log(line);
for (const n of flooderApp ? levels : []) {
  const show = (xs: number[] = []) => xs.map((x) => x.toFixed(1)).join(" / ");
  console.log(
    `${n} honest connections, p99 per round (ms): without flooder ${show(p99s.get(`${n} alone`))}; with flooder ${show(p99s.get(`${n} flood`))}` +
      (args["flood-controls"]
        ? `; with its token mints only ${show(p99s.get(`${n} mints`))}; with token requests of an unknown key ${show(p99s.get(`${n} unknown-key`))}; with GET /health/live at that rate ${show(p99s.get(`${n} health`))}; with the flooder against a stub ${show(p99s.get(`${n} stub`))}`
        : ""),
  );
}
console.log(`WebSocket extensions negotiated: ${extensions}`);
console.log(`load average after: ${loadavg()}`);
