/**
 * npm run bench:motion — live motion service under load, on this machine.
 *
 * Starts its own local stack (or uses --base-url), creates an Avatar from a fixture portrait, then for each
 * concurrency level opens that many connections that stream speech in real time (20 ms PCM16 chunks at
 * 16 kHz) and prints:
 *   latency  p50/p99 from sending the audio chunk that completes a frame's audio (its 40 ms plus the 80 ms
 *            look-ahead) to receiving that frame — network, Worker, Durable Object and analysis included;
 *   fps      frames per second delivered per connection while streaming (goal 25.0);
 *   cpu      workerd CPU per connection, in % of one core (from /proc, own stack only).
 * Prints figures; asserts nothing. Run it with `nice` on a shared machine.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { ensureDevVars } from "./lib/dev-vars";
import { startStack } from "./lib/stack";
import { speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";

const { values: args } = parseArgs({
  options: {
    "base-url": { type: "string" },
    port: { type: "string", default: "8856" },
    levels: { type: "string", default: "1,20,100" },
    seconds: { type: "string", default: "12" },
  },
});
const RATE = 16_000;
const CHUNK = 320; // 20 ms
const port = Number(args.port);
const levels = args.levels!.split(",").map(Number);
const seconds = Number(args.seconds);

// ---- stack, accounts, Avatar --------------------------------------------------------------------------
const vars = ensureDevVars(".dev.vars");
const media = createServer((_, res) => {
  res.writeHead(200, { "Content-Type": "image/jpeg" });
  res.end(readFileSync("test/fixtures/portraits/single-camera.jpg"));
}).listen(port + 2, "127.0.0.1");
const stack = args["base-url"]
  ? undefined
  : await startStack({ port, rendererPort: port + 1, persistTo: `.local/bench-motion-${port}`, sourceAllowlist: `127.0.0.1:${port + 2}`, vars });
const base = args["base-url"] ?? stack!.baseUrl;

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { "Content-Type": "application/json", ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : ((await res.json()) as any);
}
const admin = { Authorization: `Bearer ${vars.ADMIN_TOKEN}` };
const ceil = { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 };
async function newApp() {
  const { account } = await call("/v1/admin/accounts", {
    headers: admin,
    body: { name: "bench", openApiAccess: true, avatarCreationEnabled: true, videoAccess: true, videoCreationEnabled: true, avatarUnits: 2, limits: { avatar: { ...ceil, concurrent: 10 }, video: ceil } },
  });
  const { app, apiKey } = await call(`/v1/admin/accounts/${account.id}/apps`, { headers: admin, body: { name: "bench" } });
  return { "X-App-ID": app.id as string, "X-API-Key": apiKey as string };
}
// The per-account limit is 10 connections: one account per 10 connections, all using one public Avatar.
const apps = await Promise.all(Array.from({ length: Math.ceil(Math.max(...levels) / 10) }, newApp));
const { jobId } = await call("/v1/open/avatars", { headers: apps[0], body: { imageUrl: `http://127.0.0.1:${port + 2}/portrait.jpg` } });
let avatarId = "";
for (;;) {
  const { job } = await call(`/v1/open/avatar-jobs/${jobId}`, { headers: apps[0] });
  if (job.status === "succeeded") { avatarId = job.avatarId; break; }
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
 * ends at sample (4n+9)·160 + 80 + 256: 71 ms of look-ahead past the frame's 40 ms.
 */
const completingSample = (n: number) => 640 * n + 1775;

// ---- CPU of the stack's workerd processes -------------------------------------------------------------
function workerdPids(): number[] {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = st.lastIndexOf(")");
      names.set(Number(d), st.slice(st.indexOf("(") + 1, close));
      parent.set(Number(d), Number(st.slice(close + 2).split(" ")[1]));
    } catch {
      // exited
    }
  }
  const mine = (pid: number) => {
    for (let p = parent.get(pid); p && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => name.startsWith("workerd") && mine(pid)).map(([pid]) => pid);
}
const cpuSeconds = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").slice(readFileSync(`/proc/${pid}/stat`, "utf8").lastIndexOf(")") + 2).split(" ");
      return sum + (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return sum;
    }
  }, 0);

// ---- one level --------------------------------------------------------------------------------------
async function connection(headers: Record<string, string>) {
  const { sessionToken } = await call("/v1/console/session-tokens", { headers: { "X-API-Key": headers["X-API-Key"]! }, body: { expireAt: Math.floor(Date.now() / 1000) + 300 } });
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/v1/motion?avatarId=${avatarId}`, ["motion.v1", `token.${sessionToken}`]);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let frames = 0;
  let streamingFrames = 0;
  let firstAt = 0;
  let lastAt = 0;
  let done = false;
  ws.on("message", (data) => {
    const m = JSON.parse(String(data));
    if (m.type !== "motion") return;
    frames++;
    if (!done) {
      streamingFrames++;
      lastAt = performance.now();
      firstAt ||= lastAt;
    }
    const chunk = Math.floor(completingSample(m.frame) / CHUNK);
    if (!done && sentAt[chunk] !== undefined) latencies.push(performance.now() - sentAt[chunk]!);
  });
  const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
  ws.send(JSON.stringify({ type: "start", sampleRate: RATE }));
  const t0 = performance.now();
  for (let k = 0; k * CHUNK * 2 < pcm.length; k++) {
    const wait = t0 + k * 20 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sentAt[k] = performance.now();
    ws.send(pcm.subarray(k * CHUNK * 2, (k + 1) * CHUNK * 2));
  }
  done = true;
  ws.send(JSON.stringify({ type: "stop" }));
  const code = await closed;
  // Delivery rate while audio streams in: frames between the first and the last one received.
  return { latencies, fps: (streamingFrames - 1) / ((lastAt - firstAt) / 1000), frames, code };
}

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? NaN;
};

console.log(`motion bench: ${seconds} s of speech per connection, 20 ms chunks at 16 kHz, stack ${base}`);
console.log("connections | latency p50 | latency p99 | fps/conn (min–mean) | workerd CPU/conn | closes");
for (const n of levels) {
  const pids = stack ? workerdPids() : [];
  const cpu0 = cpuSeconds(pids);
  const w0 = performance.now();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => connection(apps[Math.floor(i / 10)]!)));
  const wall = (performance.now() - w0) / 1000;
  const cpu = pids.length ? ((cpuSeconds(pids) - cpu0) / wall / n) * 100 : NaN;
  const lat = results.flatMap((r) => r.latencies);
  const fps = results.map((r) => r.fps);
  const codes = [...new Set(results.map((r) => r.code))].join(",");
  console.log(
    `${String(n).padStart(11)} | ${pct(lat, 0.5).toFixed(1).padStart(8)} ms | ${pct(lat, 0.99).toFixed(1).padStart(8)} ms | ` +
      `${Math.min(...fps).toFixed(1)}–${(fps.reduce((a, b) => a + b, 0) / n).toFixed(1)} | ${Number.isNaN(cpu) ? "n/a" : `${cpu.toFixed(1)} % of a core`} | ${codes}`,
  );
  await new Promise((r) => setTimeout(r, 1000));
}
media.close();
await stack?.stop();
