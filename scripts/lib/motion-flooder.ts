import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import WebSocket, { WebSocketServer } from "ws";

/**
 * bench:motion --flood: a client pushing audio at network speed, reconnecting whenever it is closed (a new
 * session token each time; a refused upgrade is retried after 500 ms, whatever its Retry-After says). Its first
 * audio message fills the whole allowance (2 s, pacing.ts), later ones are 64 KiB: the most analysis a flooding
 * connection can get. It runs on its own thread, booted before the honest clients start: in one event loop
 * with them, its sending delayed their chunks and frames, which the bench then counted as the service's
 * latency (a real flooder is another machine).
 *
 * Controls tell the flood's parts apart (--flood-controls):
 * - "mints": only the flooder's token requests, at its retry rate: API traffic, no motion connection at all;
 * - "unknown-key": token requests with a key no App has, at that rate: the key lookup (one D1 read), then 401;
 * - "health": `GET /health/live` at that rate: any request's floor, none of the service's code;
 * - "stub": the same flooder against a stand-in service on its own thread (a dummy token, 429 for 10 s after a
 *   flood close, 1008 at the second audio message): the client's own CPU (plus the stand-in's), no service work.
 */
export type FloodMode = "flood" | "stub" | "mints" | "unknown-key" | "health";

export interface FloodOptions {
  mode: FloodMode;
  base: string;
  avatarId: string;
  apiKey: string;
  /** 2 s of PCM16 audio (the allowance), then 64 KiB messages cut from it. */
  audio: Uint8Array;
  sampleRate: number;
}

/** What the flooder did; event times are wall-clock ms (performance.timeOrigin + now()), as the bench's. */
export interface FloodReport {
  attempts: number;
  connections: number;
  messages: number;
  bytes: number;
  closes: Record<string, number>;
  /** Upgrade attempts refused, by HTTP status. */
  refused: Record<string, number>;
  /** CPU seconds of the flooder's thread while it ran (its boot excluded). */
  cpu: number;
  events: { t: number; kind: string }[];
}

const RETRY_MS = 500;
const wall = () => performance.timeOrigin + performance.now();

/** CPU seconds of the calling thread (Linux /proc). */
export function threadCpu(): number {
  const st = readFileSync("/proc/thread-self/stat", "utf8");
  const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Boots the flooder on its own thread; `start` sets it going, `stop` ends it and returns what it did. */
export async function startFlooder(opts: FloodOptions): Promise<{ start(): void; stop(): Promise<FloodReport> }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: opts, execArgv: ["--import", "tsx"] });
  const inbox: unknown[] = [];
  let wake = () => {};
  worker.on("message", (m) => {
    inbox.push(m);
    wake();
  });
  const failed = new Promise<never>((_, reject) => worker.once("error", reject));
  const next = () =>
    Promise.race([
      failed,
      inbox.length ? inbox.shift() : new Promise<void>((r) => (wake = r)).then(() => inbox.shift()),
    ]);
  await next(); // booted
  return {
    start: () => worker.postMessage("start"),
    stop: async () => {
      worker.postMessage("stop");
      const report = (await next()) as FloodReport;
      await worker.terminate();
      return report;
    },
  };
}

async function mint(o: FloodOptions): Promise<string | undefined> {
  const res = await fetch(`${o.base}/v1/console/session-tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": o.mode === "unknown-key" ? "unknown" : o.apiKey },
    body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 300 }),
  });
  return res.ok ? ((await res.json()) as { sessionToken: string }).sessionToken : undefined;
}

function upgrade(o: FloodOptions, token: string, report: FloodReport): Promise<WebSocket | undefined> {
  const ws = new WebSocket(`${o.base.replace(/^http/, "ws")}/v1/motion?avatarId=${o.avatarId}`, [
    "motion.v1",
    `token.${token}`,
  ]);
  return new Promise((resolve) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => {
      res.resume();
      report.refused[res.statusCode!] = (report.refused[res.statusCode!] ?? 0) + 1;
      resolve(undefined);
    });
    ws.once("error", () => resolve(undefined));
  });
}

/** Sends audio at network speed until the service closes the connection (or the bench stops). */
async function pushAudio(o: FloodOptions, ws: WebSocket, report: FloodReport, running: () => boolean) {
  const closed = new Promise<void>((r) =>
    ws.once("close", (code, reason) => {
      report.events.push({ t: wall(), kind: "close" });
      const key = `${code} ${String(reason).replace(/\d+ ms/, "N ms")}`;
      report.closes[key] = (report.closes[key] ?? 0) + 1;
      r();
    }),
  );
  ws.send(JSON.stringify({ type: "start", sampleRate: o.sampleRate }));
  for (let k = 0; running() && ws.readyState === WebSocket.OPEN; k++) {
    const message = k === 0 ? o.audio : o.audio.subarray(0, 65_536);
    await new Promise<void>((r) => ws.send(message, () => r()));
    report.messages++;
    report.bytes += message.length;
  }
  if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  await closed;
}

async function flood(o: FloodOptions, stopped: Promise<void>): Promise<FloodReport> {
  const report: FloodReport = {
    attempts: 0,
    connections: 0,
    messages: 0,
    bytes: 0,
    closes: {},
    refused: {},
    cpu: 0,
    events: [],
  };
  const cpu0 = threadCpu();
  let running = true;
  void stopped.then(() => (running = false));
  while (running) {
    report.attempts++;
    report.events.push({ t: wall(), kind: o.mode === "health" ? "health" : "mint" });
    let token: string | undefined;
    if (o.mode === "health") await (await fetch(`${o.base}/health/live`)).arrayBuffer();
    else token = await mint(o);
    const ws =
      token && o.mode !== "mints"
        ? (report.events.push({ t: wall(), kind: "upgrade" }), await upgrade(o, token, report))
        : undefined;
    if (ws) {
      report.events.push({ t: wall(), kind: "open" });
      report.connections++;
      await pushAudio(o, ws, report, () => running);
    } else {
      report.events.push({ t: wall(), kind: "wait" });
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
  report.cpu = threadCpu() - cpu0;
  return report;
}

/** The stand-in service of mode "stub" (see above), on this thread; returns its base URL. */
async function stubService(): Promise<string> {
  let coolUntil = 0;
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end(JSON.stringify({ sessionToken: "stub" })));
  });
  server.on("upgrade", (req, socket, head) => {
    if (Date.now() < coolUntil) return void socket.end("HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n");
    wss.handleUpgrade(req, socket, head, (ws) => {
      let audio = 0;
      ws.on("message", (_data, binary) => {
        if (!binary || ++audio !== 2) return;
        coolUntil = Date.now() + 10_000;
        ws.close(1008, "audio is 4048 ms ahead of real time; stream at most 2 s ahead");
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const o = workerData as FloodOptions;
  if (o.mode === "stub") o.base = await stubService();
  const message = (kind: string) => new Promise<void>((r) => port.once("message", (m) => m === kind && r()));
  const started = message("start");
  port.postMessage("booted");
  await started;
  port.postMessage(await flood(o, message("stop")));
}

/**
 * Latencies over `spikeMs`, by the flooder's last event before their arrival (within 30 ms, else "none"),
 * next to the share of the time each kind of event's 30 ms covers: a kind with many more spikes than its
 * share of the time is where they come from.
 */
export function spikesAfterEvents(
  samples: { latency: number; at: number }[],
  events: FloodReport["events"],
  spikeMs: number,
): string {
  const WINDOW = 30;
  const kindAt = (t: number) => {
    let last: FloodReport["events"][number] | undefined;
    for (const e of events) if (e.t <= t) last = e;
    return last && t - last.t < WINDOW ? `${last.kind}` : "none";
  };
  const spikes = new Map<string, number>();
  for (const s of samples) if (s.latency > spikeMs) spikes.set(kindAt(s.at), (spikes.get(kindAt(s.at)) ?? 0) + 1);
  const times = samples.map((s) => s.at);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const time = new Map<string, number>();
  for (let t = t0; t < t1; t += 1) time.set(kindAt(t), (time.get(kindAt(t)) ?? 0) + 1);
  return `spikes after ${[...new Set([...time.keys(), ...spikes.keys()])]
    .map((k) => `${k} ${spikes.get(k) ?? 0} (${(((time.get(k) ?? 0) / (t1 - t0)) * 100).toFixed(1)} % of the time)`)
    .join(", ")}`;
}
