import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import WebSocket from "ws";

/**
 * bench:motion --flood: a client pushing 64 KiB audio messages at network speed, reconnecting whenever it is
 * closed (a refused reconnect is retried after 500 ms). It runs on its own thread: in one event loop with the
 * honest clients, its sending delayed their chunks and frames, which the bench then counted as the service's
 * latency (a real flooder is another machine).
 */
export interface FloodOptions {
  base: string;
  avatarId: string;
  apiKey: string;
  /** One 64 KiB message of PCM16 audio. */
  message: Uint8Array;
  sampleRate: number;
}

export interface FloodReport {
  connections: number;
  bytes: number;
  closes: Record<string, number>;
}

/** Starts the flooder on its own thread; `stop` ends it and returns what it did. */
export function startFlooder(opts: FloodOptions): { stop(): Promise<FloodReport> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: opts, execArgv: ["--import", "tsx"] });
  const report = new Promise<FloodReport>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const r = await report;
      await worker.terminate();
      return r;
    },
  };
}

async function open(o: FloodOptions): Promise<WebSocket | undefined> {
  const res = await fetch(`${o.base}/v1/console/session-tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": o.apiKey },
    body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 300 }),
  });
  if (!res.ok) return undefined;
  const { sessionToken } = (await res.json()) as { sessionToken: string };
  const ws = new WebSocket(`${o.base.replace(/^http/, "ws")}/v1/motion?avatarId=${o.avatarId}`, [
    "motion.v1",
    `token.${sessionToken}`,
  ]);
  return new Promise((resolve) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", () => resolve(undefined));
    ws.once("error", () => resolve(undefined));
  });
}

async function flood(o: FloodOptions): Promise<FloodReport> {
  const report: FloodReport = { connections: 0, bytes: 0, closes: {} };
  let running = true;
  parentPort!.once("message", () => {
    running = false;
  });
  while (running) {
    const ws = await open(o);
    if (!ws) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    report.connections++;
    const closed = new Promise<void>((r) =>
      ws.once("close", (code, reason) => {
        const key = `${code} ${String(reason).replace(/\d+ ms/, "N ms")}`;
        report.closes[key] = (report.closes[key] ?? 0) + 1;
        r();
      }),
    );
    ws.send(JSON.stringify({ type: "start", sampleRate: o.sampleRate }));
    while (running && ws.readyState === WebSocket.OPEN) {
      await new Promise<void>((r) => ws.send(o.message, () => r()));
      report.bytes += o.message.length;
    }
    if (ws.readyState === WebSocket.OPEN) ws.close(1000);
    await closed;
  }
  return report;
}

if (!isMainThread && parentPort) await flood(workerData as FloodOptions).then((r) => parentPort!.postMessage(r));
