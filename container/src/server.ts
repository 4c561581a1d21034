/**
 * The renderer service (docs/renderer.md): `GET /health`, `POST /jobs` (Bearer RENDERER_TOKEN) which
 * answers 202 at once and runs the job in the background, reporting to the Worker over the job's
 * callbackUrl. SIGTERM/SIGINT: stop accepting, abort running jobs (they report nothing more; the
 * Worker's sweep dispatches them again), exit.
 *
 * Start: `npx tsx container/src/server.ts` with RENDERER_TOKEN set (see config.ts for the rest).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type RendererConfig, loadConfig } from "./config";
import { handleAvatarCheck } from "./checks/avatar-check";
import { parseDispatch } from "@avatar-video/contract";
import { type Engines, defaultEngines } from "./jobs/engines";
import { type Logger, createLogger, redactUrl } from "./jobs/log";
import { JobManager } from "./jobs/manager";
import { ffmpegChoice } from "./video/ffmpeg";

const MAX_BODY_BYTES = 256 * 1024;

export interface Renderer {
  server: http.Server;
  manager: JobManager;
  /** Resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops accepting, aborts the jobs, waits (bounded) for them to unwind, closes the server. */
  shutdown(): Promise<void>;
}

/** Constant-time Bearer check (hashing first makes the comparison length-independent too). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer +(.+)$/i.exec(header ?? "");
  const given = createHash("sha256").update(m ? m[1].trim() : "\0").digest();
  const want = createHash("sha256").update(token).digest();
  return timingSafeEqual(given, want) && !!m;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<Buffer | "too_large"> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      req.resume();
      return resolve("too_large");
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? "too_large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function createRenderer(config: RendererConfig, opts: { engines?: Engines; log?: Logger } = {}): Renderer {
  const log = opts.log ?? createLogger({ service: "renderer" });
  const engines = opts.engines ?? defaultEngines();
  const manager = new JobManager(config, engines, log);
  const ready = manager.init();

  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://renderer");
    res.on("finish", () => {
      if (url.pathname !== "/health") {
        log.info("request", { method: req.method, path: url.pathname, status: res.statusCode, ms: Math.round(performance.now() - started) });
      }
    });
    try {
      if (url.pathname === "/health") {
        if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { error: "method not allowed" }, { allow: "GET" });
        const draining = manager.isDraining;
        const { version, source, ffmpeg } = ffmpegChoice();
        return send(res, draining ? 503 : 200, {
          ok: !draining,
          activeJobs: manager.activeJobs,
          waitingJobs: manager.waitingJobs,
          ffmpeg: { version, source, path: ffmpeg },
        });
      }
      if (url.pathname === "/jobs") {
        if (req.method !== "POST") return send(res, 405, { error: "method not allowed" }, { allow: "POST" });
        if (!bearerMatches(req.headers.authorization, config.token)) {
          req.resume();
          return send(res, 401, { error: "unauthorized" }, { "www-authenticate": "Bearer" });
        }
        const raw = await readBody(req);
        if (raw === "too_large") return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
        let body: unknown;
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          return send(res, 400, { error: "body is not valid JSON" });
        }
        const parsed = parseDispatch(body);
        if (!parsed.ok) return send(res, 400, { error: parsed.error });
        await ready;
        const d = parsed.value;
        const result = manager.submit(d);
        log.info("dispatch", {
          jobId: d.jobId,
          attempt: d.attempt,
          kind: d.kind,
          status: result.status,
          callback: redactUrl(d.callbackUrl),
          ...(result.status === 202 ? { duplicate: result.duplicate, state: result.state } : { error: result.error }),
        });
        if (result.status === 202) {
          return send(res, 202, { accepted: true, jobId: d.jobId, attempt: d.attempt, duplicate: result.duplicate, state: result.state });
        }
        return send(res, result.status, { error: result.error }, result.status === 503 ? { "retry-after": "5" } : {});
      }
      if (url.pathname === "/checks") return await handleAvatarCheck(req, res, config, log, (h) => bearerMatches(h, config.token));
      return send(res, 404, { error: "not found" });
    } catch (err) {
      log.error("request_failed", { error: err });
      if (!res.headersSent) send(res, 500, { error: "internal error" });
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 5_000;

  return {
    server,
    manager,
    async listen() {
      await ready;
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.port, config.host, () => (server.off("error", reject), resolve()));
      });
      const port = (server.address() as AddressInfo).port;
      log.info("renderer_listening", {
        port,
        ffmpeg: ffmpegChoice(),
        allowlist: [...config.allowlist],
        concurrency: config.concurrency,
        workDir: config.workDir,
      });
      return port;
    },
    async shutdown() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await manager.shutdown();
      server.closeAllConnections();
      await closed;
    },
  };
}

async function main(): Promise<void> {
  const log = createLogger({ service: "renderer" });
  let config: RendererConfig;
  try {
    config = loadConfig();
  } catch (err) {
    log.error("invalid_configuration", { error: err });
    process.exit(2);
  }
  const engines = defaultEngines();
  const renderer = createRenderer(config, { engines, log });
  await renderer.listen();
  // Load the face models in the background so the first Avatar job does not pay for it.
  if (process.env.WARM_MODELS !== "0") {
    engines.warm?.().then(
      () => log.info("face_models_warm"),
      (err) => log.warn("face_model_warmup_failed", { error: err }),
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting_down", { signal, activeJobs: renderer.manager.activeJobs });
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 5_000);
    force.unref();
    renderer.shutdown().then(
      () => {
        log.info("stopped");
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("unhandledRejection", (err) => log.error("unhandled_rejection", { error: err }));
}

/** True when this module is the process entry point (not imported by tests or other modules). */
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) void main();
