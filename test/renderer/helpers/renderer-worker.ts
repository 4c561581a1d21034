/**
 * A stand-in for the Worker's internal routes, on 127.0.0.1: job events (`POST /internal/jobs/{id}/events`)
 * and signed object URLs (`GET`/`PUT /objects/{key}`), both checking the per-job Bearer token.
 */
import http from "node:http";
import type net from "node:net";
import type { AvatarResult, VideoResult } from "../../../container/src/runs/public";

export const JOB_TOKEN = "job-token-0123456789abcdef";

/**
 * The `result` of a succeeded event as the tests read it: an Avatar job's or a video job's, whichever the test
 * dispatched (declared as both; absent on other events, where no test reads it).
 */
export type SeenResult = AvatarResult & VideoResult;

export interface SeenEvent {
  jobId: string;
  /** From the callback URL's query. */
  urlAttempt: number;
  body: {
    type: string;
    stage?: string;
    result: SeenResult;
    error?: { code: string; message: string; retryable: boolean };
    jobId?: string;
    attempt?: number;
  };
  at: number;
}

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
}

type EventAnswer = { status?: number; body?: unknown } | undefined;

export interface FakeWorker {
  origin: string;
  events: SeenEvent[];
  objects: Map<string, StoredObject>;
  /** Order of everything that happened: "event:<type>:<stage>" and "put:<key>". */
  log: string[];
  /** Every object request: method, key, multipart query and the body's size. */
  requests: { method: string; key: string; query: string; bytes: number }[];
  /** Decides the answer to an event (default 200 {ok:true}). */
  onEvent: (e: SeenEvent) => EventAnswer;
  /** Answers object requests with this status instead (e.g. 503) while it returns a number. */
  onObject: (method: string, key: string) => number | undefined;
  callbackUrl(jobId: string, attempt: number): string;
  objectUrl(key: string): string;
  eventsOf(jobId: string, attempt?: number): SeenEvent[];
  /**
   * Resolves with the first event matching, waiting for it (45 s by default: a real engine's job shares the
   * machine with another test file, and the tests' own limit is 60 s).
   */
  waitFor(pred: (e: SeenEvent) => boolean, timeoutMs?: number): Promise<SeenEvent>;
  terminal(jobId: string, attempt?: number, timeoutMs?: number): Promise<SeenEvent>;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeWorker(): Promise<FakeWorker> {
  const sockets = new Set<net.Socket>();
  const uploads = new Map<string, Map<number, Buffer>>();
  const waiters: { pred: (e: SeenEvent) => boolean; resolve: (e: SeenEvent) => void }[] = [];
  const fw: FakeWorker = {
    origin: "",
    events: [],
    objects: new Map(),
    log: [],
    requests: [],
    onEvent: () => undefined,
    onObject: () => undefined,
    callbackUrl: (jobId, attempt) =>
      `${fw.origin}/internal/jobs/${jobId}/events?attempt=${attempt}&sig=callback-secret`,
    objectUrl: (key) => `${fw.origin}/objects/${key}?exp=9999999999&sig=object-secret`,
    eventsOf: (jobId, attempt) =>
      fw.events.filter((e) => e.jobId === jobId && (attempt === undefined || e.urlAttempt === attempt)),
    waitFor(pred, timeoutMs = 45_000) {
      const hit = fw.events.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve: (e: SeenEvent) => (clearTimeout(t), resolve(e)) };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`no matching event within ${timeoutMs} ms; seen: ${fw.log.join(", ")}`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
    terminal: (jobId, attempt, timeoutMs) =>
      fw.waitFor(
        (e) =>
          e.jobId === jobId &&
          (attempt === undefined || e.urlAttempt === attempt) &&
          (e.body.type === "succeeded" || e.body.type === "failed"),
        timeoutMs,
      ),
    reset() {
      fw.events.length = 0;
      fw.log.length = 0;
      fw.requests.length = 0;
      fw.objects.clear();
      fw.onEvent = () => undefined;
      fw.onObject = () => undefined;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const reply = (status: number, json?: unknown) => {
        const text = json === undefined ? "" : JSON.stringify(json);
        res.writeHead(status, { "content-type": "application/json" }).end(text);
      };
      if (req.headers.authorization !== `Bearer ${JOB_TOKEN}`) return reply(401, { error: "unauthorized" });
      const ev = /^\/internal\/jobs\/([^/]+)\/events$/.exec(url.pathname);
      if (ev && req.method === "POST") {
        const e: SeenEvent = {
          jobId: ev[1],
          urlAttempt: Number(url.searchParams.get("attempt")),
          body: JSON.parse(body.toString()),
          at: Date.now(),
        };
        fw.events.push(e);
        fw.log.push(`event:${e.body.type}${e.body.stage ? `:${e.body.stage}` : ""}`);
        for (const w of [...waiters]) if (w.pred(e)) waiters.splice(waiters.indexOf(w), 1), w.resolve(e);
        const answer = fw.onEvent(e);
        return reply(answer?.status ?? 200, answer?.body ?? { ok: true });
      }
      const obj = /^\/objects\/(.+)$/.exec(url.pathname);
      if (obj) {
        const key = decodeURIComponent(obj[1]);
        const q = url.searchParams;
        const query = ["uploads", "uploadId", "partNumber"].filter((k) => q.has(k)).join("&");
        fw.requests.push({ method: req.method ?? "", key, query, bytes: body.length });
        const forced = fw.onObject(req.method ?? "", key);
        if (forced !== undefined) return reply(forced, { error: "forced" });
        // Multipart (the Worker's S3-style steps on the object URL), parts kept in memory.
        if (req.method === "POST" && q.has("uploads")) {
          const uploadId = `up-${uploads.size + 1}`;
          uploads.set(uploadId, new Map());
          return reply(200, { uploadId });
        }
        const upload = uploads.get(q.get("uploadId") ?? "");
        if (q.has("uploadId") && !upload) return reply(404, { error: "no such upload" });
        if (upload && req.method === "PUT") {
          const n = Number(q.get("partNumber"));
          upload.set(n, body);
          return reply(200, { partNumber: n, etag: `etag-${n}` });
        }
        if (upload && req.method === "POST") {
          const { parts } = JSON.parse(body.toString()) as { parts: { partNumber: number; etag: string }[] };
          const whole = Buffer.concat(parts.map((p) => upload.get(p.partNumber)!));
          fw.objects.set(key, { body: whole, contentType: "video/mp4" });
          fw.log.push(`put:${key}`);
          return reply(200, { ok: true, key, size: whole.length });
        }
        if (upload && req.method === "DELETE") {
          uploads.delete(q.get("uploadId")!);
          fw.log.push(`abort:${key}`);
          return reply(200, { ok: true });
        }
        if (req.method === "PUT") {
          if (Number(req.headers["content-length"]) !== body.length) return reply(400, { error: "length mismatch" });
          fw.objects.set(key, { body, contentType: req.headers["content-type"] });
          fw.log.push(`put:${key}`);
          return reply(200, { ok: true });
        }
        if (req.method === "GET") {
          const o = fw.objects.get(key);
          if (!o) return reply(404, { error: "not found" });
          res.writeHead(200, {
            "content-type": o.contentType ?? "application/octet-stream",
            "content-length": o.body.length,
          });
          return res.end(o.body);
        }
      }
      reply(404, { error: "not found" });
    });
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  fw.origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return fw;
}
