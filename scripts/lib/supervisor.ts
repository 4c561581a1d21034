import type { ChildProcess } from "node:child_process";

/**
 * Keeps one child process running: whenever it exits on its own (crash, `kill -9`, out of memory) a new
 * one is started after a short delay. A child that dies soon after its start counts as "keeps dying" and
 * the delay doubles each time (capped); a child that stayed up resets it. Each restart logs one line.
 * Used by the local stack for the renderer (`npm start` and the e2e stack share it).
 */
export interface SupervisorOptions {
  /** Name used in the log lines, e.g. "renderer". */
  name: string;
  /** Starts a new child. Called once at once, then after every unrequested exit. */
  spawn: () => ChildProcess;
  /** Receives one line per exit and restart. */
  log?: (line: string) => void;
  /** Delay before restarting a child that stayed up (ms). */
  restartDelayMs?: number;
  /** A child that lived shorter than this "keeps dying": the next delay doubles (ms). */
  minUptimeMs?: number;
  /** Ceiling of the doubled delay (ms). */
  maxDelayMs?: number;
}

export interface Supervisor {
  /** Pid of the current child (undefined between an exit and the restart). */
  readonly pid: number | undefined;
  /** Restarts so far. */
  readonly restarts: number;
  /** Resolves with the pid of the next child the supervisor starts (after the current one exits). */
  nextStart(): Promise<number>;
  /** Sends a signal to the current child's process group (it is restarted like after any other exit). */
  kill(signal?: NodeJS.Signals): void;
  /** Stops supervising and ends the child (SIGTERM, then SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

export const RESTART_DELAY_MS = 500;
export const MIN_UPTIME_MS = 10_000;
export const MAX_RESTART_DELAY_MS = 30_000;

/** Delay before restart number `quickDeaths` of a child that keeps dying (0: it had stayed up). */
export function restartDelay(quickDeaths: number, base = RESTART_DELAY_MS, max = MAX_RESTART_DELAY_MS): number {
  return Math.min(max, base * 2 ** quickDeaths);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // detached children lead their own group: the whole tree goes
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

export function supervise(opts: SupervisorOptions): Supervisor {
  const log = opts.log ?? (() => {});
  const base = opts.restartDelayMs ?? RESTART_DELAY_MS;
  const minUptime = opts.minUptimeMs ?? MIN_UPTIME_MS;
  const maxDelay = opts.maxDelayMs ?? MAX_RESTART_DELAY_MS;
  let child: ChildProcess | undefined;
  let stopped = false;
  let restarts = 0;
  let quickDeaths = 0;
  let timer: NodeJS.Timeout | undefined;
  let waiters: ((pid: number) => void)[] = [];

  const start = () => {
    timer = undefined;
    if (stopped) return;
    const startedAt = Date.now();
    const current = opts.spawn();
    child = current;
    if (current.pid) {
      for (const w of waiters) w(current.pid);
      waiters = [];
    }
    current.once("exit", (code, signal) => {
      if (child === current) child = undefined;
      if (stopped) return;
      const uptime = Date.now() - startedAt;
      quickDeaths = uptime < minUptime ? quickDeaths + 1 : 0;
      const delay = restartDelay(quickDeaths, base, maxDelay);
      restarts++;
      const how = signal ?? `code ${code}`;
      log(
        `[supervisor] ${opts.name} exited (${how}) after ${(uptime / 1000).toFixed(1)} s; restart ${restarts} in ${(delay / 1000).toFixed(1)} s`,
      );
      timer = setTimeout(start, delay);
    });
    // A spawn failure (e.g. missing binary) surfaces as "error" then "exit"; the exit handler restarts it.
    current.on("error", (err) => log(`[supervisor] ${opts.name} could not be started: ${err.message}`));
  };
  start();

  return {
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    nextStart() {
      return new Promise<number>((resolve) => waiters.push(resolve));
    },
    kill(signal = "SIGKILL") {
      if (child) signalGroup(child, signal);
    },
    async stop(graceMs = 5_000) {
      stopped = true;
      clearTimeout(timer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((r) => current.once("exit", () => r()));
      signalGroup(current, "SIGTERM");
      const force = setTimeout(() => signalGroup(current, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(force);
    },
  };
}
