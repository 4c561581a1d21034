import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { stripVTControlCharacters } from "node:util";
import type { DevVars } from "./dev-vars";
import { supervise } from "./supervisor";

export interface StackOptions {
  port: number;
  /** The first renderer's port; instance i listens on rendererPort + i. */
  rendererPort: number;
  /** Renderer processes, each one instance of the Worker's pool (production: Containers). Default 1. */
  rendererInstances?: number;
  /** Local D1/DO/R2/Queue state directory of wrangler. */
  persistTo: string;
  /** Comma-separated host:port entries allowed as media sources (local media servers). */
  sourceAllowlist: string;
  vars: DevVars;
  /** Stream the children's output to this process (npm start) instead of keeping it quiet (tests). */
  inheritOutput?: boolean;
  /** How often the cron sweep is triggered locally (wrangler dev does not fire crons itself). */
  sweepEveryMs?: number;
  /** Receives each line the renderer logs (JSON lines); benchmarks read job timings from them. */
  onRendererLog?: (line: string) => void;
  /** Extra environment for the renderer process (e.g. shorter deadlines in tests). */
  rendererEnv?: Record<string, string>;
  /** Extra Worker vars (`--var`), e.g. a shorter STALL_AFTER_SECONDS in tests. */
  workerVars?: Record<string, string>;
  /** Receives the supervisor's lines (renderer exits and restarts); default: stderr unless quiet. */
  onSupervisorLog?: (line: string) => void;
}

export interface Stack {
  baseUrl: string;
  /** The first renderer (instance 0). */
  rendererUrl: string;
  rendererUrls: string[];
  /** Runs the scheduled sweep once, now. */
  sweep(): Promise<void>;
  /** Pid of the current renderer process of instance 0 (undefined while the supervisor restarts it). */
  readonly rendererPid: number | undefined;
  /** Kills the renderer (SIGKILL) and waits until the supervisor's new one answers /health. */
  restartRenderer(): Promise<void>;
  stop(): Promise<void>;
}

const root = new URL("../..", import.meta.url).pathname;

/**
 * Where a child's stdout goes: nowhere (tests), the terminal, a line reader (the renderer's JSON lines for
 * benchmarks), or the terminal without the launcher's own request lines (wrangler; stderr too). stderr is shown.
 */
type Output = "quiet" | "terminal" | "filtered" | ((line: string) => void);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, output: Output): ChildProcess {
  const filtered = output === "filtered";
  const stdout = typeof output === "function" || filtered ? "pipe" : output === "quiet" ? "ignore" : "inherit";
  const stderr = filtered ? "pipe" : "inherit";
  // Own process group, so stop() ends the whole tree (wrangler spawns workerd).
  const child = spawn(cmd, args, { cwd: root, env, detached: true, stdio: ["ignore", stdout, stderr] });
  if (typeof output === "function" && child.stdout) createInterface({ input: child.stdout }).on("line", output);
  if (filtered) showWithoutLauncherLines(child);
  return child;
}

/** wrangler logs every request; the launcher's own (its start-up wait, the sweep every 30 s) are not worth a line. */
const LAUNCHER_REQUEST = / GET \/(__scheduled|health\/live)[? ]/;

/** Shows wrangler's output (stdout and stderr) without the launcher's request lines. */
function showWithoutLauncherLines(child: ChildProcess) {
  for (const [input, output] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (!input) continue;
    createInterface({ input }).on("line", (line) => {
      if (!LAUNCHER_REQUEST.test(stripVTControlCharacters(line))) output.write(`${line}\n`);
    });
  }
}

async function waitForHttp(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM") {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const quiet = !opts.inheritOutput;
  const bin = (name: string) => `${root}node_modules/.bin/${name}`;
  // No network here or in CI: skip miniflare's fetch of the Request.cf template (it logs ENOTFOUND otherwise).
  // wrangler's local observability recorder writes every event (each WebSocket message) to SQLite: ~30 % of the
  // local runtime's CPU under motion load and no part of the service (docs/motion.md); X_LOCAL_OBSERVABILITY=true keeps it.
  // WRANGLER_REGISTRY_PATH empty: no dev registry (the machine-wide list of `wrangler dev` sessions). Nothing here
  // binds to another session, and each session that starts or stops elsewhere would print the bindings table again.
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    NO_UPDATE_NOTIFIER: "1",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_REGISTRY_PATH: "",
    X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
  };

  const migrate = spawnSync(
    bin("wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", opts.persistTo],
    {
      cwd: root,
      env: { ...env, CI: "true" },
      encoding: "utf8",
    },
  );
  if (migrate.status !== 0) throw new Error(`D1 migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const baseUrl = `http://127.0.0.1:${opts.port}`;
  // The Worker itself is a media source locally: console uploads reach the renderer as signed URLs of the
  // Worker (in production PUBLIC_BASE_URL is public and passes the SSRF checks unaided). docs/console.md
  const sourceAllowlist = [opts.sourceAllowlist, `127.0.0.1:${opts.port}`].filter(Boolean).join(",");
  const instances = Math.max(1, opts.rendererInstances ?? 1);
  const rendererUrls = Array.from({ length: instances }, (_, i) => `http://127.0.0.1:${opts.rendererPort + i}`);
  const rendererUrl = rendererUrls[0];
  // `node --import tsx` (as in the image): one process each, so the pid is the renderer itself.
  const renderers = rendererUrls.map((_, i) => {
    const rendererEnv = {
      ...env,
      PORT: String(opts.rendererPort + i),
      RENDERER_TOKEN: opts.vars.RENDERER_TOKEN,
      SOURCE_ALLOWLIST: sourceAllowlist,
      ...opts.rendererEnv,
    };
    return supervise({
      name: instances > 1 ? `renderer-${i}` : "renderer",
      spawn: () =>
        run(
          process.execPath,
          ["--import", "tsx", "container/src/server.ts"],
          rendererEnv,
          opts.onRendererLog ?? (quiet ? "quiet" : "terminal"),
        ),
      log: opts.onSupervisorLog ?? (quiet ? undefined : (line) => console.error(line)),
    });
  });
  const renderer = renderers[0];

  const worker = run(
    bin("wrangler"),
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(opts.port),
      "--persist-to",
      opts.persistTo,
      "--test-scheduled",
      "--show-interactive-dev-session=false",
      // The local stack is development: lets the Worker dispatch to the renderer on loopback (renderer-target.ts).
      "--var",
      "ENVIRONMENT:development",
      // The Worker's pool hands each render one of these instances (workers/pipeline/renderer/pool.ts).
      "--var",
      `RENDERER_URL:${rendererUrls.join(",")}`,
      "--var",
      `RENDERER_INSTANCES:${instances}`,
      "--var",
      `SOURCE_ALLOWLIST:${sourceAllowlist}`,
      "--var",
      `PUBLIC_BASE_URL:${baseUrl}`,
      ...Object.entries(opts.workerVars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    // Piped when shown (to drop the launcher's request lines), so colours are asked for when this terminal has them.
    quiet ? env : { ...env, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" },
    quiet ? "quiet" : "filtered",
  );

  const stop = async () => {
    clearInterval(sweepTimer);
    killGroup(worker);
    await Promise.all(renderers.map((r) => r.stop()));
  };
  const sweep = async () => {
    await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`)
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
  };
  let sweepTimer: NodeJS.Timeout | undefined;
  try {
    await Promise.all([
      ...rendererUrls.map((u) => waitForHttp(`${u}/health`, 60_000)),
      waitForHttp(`${baseUrl}/health/live`, 120_000),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  sweepTimer = setInterval(sweep, opts.sweepEveryMs ?? 30_000);
  sweepTimer.unref();

  return {
    baseUrl,
    rendererUrl,
    rendererUrls,
    sweep,
    stop,
    get rendererPid() {
      return renderer.pid;
    },
    async restartRenderer() {
      const next = renderer.nextStart();
      renderer.kill("SIGKILL");
      await next;
      await waitForHttp(`${rendererUrl}/health`, 60_000);
    },
  };
}
