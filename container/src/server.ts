/**
 * The renderer service (docs/renderer.md): the routes of http/app.ts (`GET /health`, `POST /jobs`,
 * `POST /checks`) served by @hono/node-server; a dispatched job runs in the background, reporting to the
 * Worker over the job's callbackUrl. SIGTERM/SIGINT: stop accepting, abort running jobs (they report nothing more; the
 * Worker's sweep dispatches them again), exit.
 *
 * Start: `npx tsx container/src/server.ts` with RENDERER_TOKEN set (see io/config.ts for the rest).
 */
import { createAdaptorServer } from "@hono/node-server";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type RendererConfig, loadConfig, type Logger, createLogger } from "./io/public";
import { rendererApp } from "./http/app";
import { type Engines, defaultEngines, JobManager } from "./runs/public";
import { ffmpegChoice } from "./media/public";

export { bearerMatches } from "./http/bearer";

export interface Renderer {
  server: http.Server;
  manager: JobManager;
  /** Resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops accepting, aborts the jobs, waits (bounded) for them to unwind, closes the server. */
  shutdown(): Promise<void>;
}

export function createRenderer(config: RendererConfig, opts: { engines?: Engines; log?: Logger } = {}): Renderer {
  const log = opts.log ?? createLogger({ service: "renderer" });
  const engines = opts.engines ?? defaultEngines();
  const manager = new JobManager(config, engines, log);
  const ready = manager.init();
  const app = rendererApp(config, manager, ready, log);
  const server = createAdaptorServer({ fetch: app.fetch }) as http.Server;
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
  if (config.warmModels) {
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
