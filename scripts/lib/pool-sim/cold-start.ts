/**
 * A renderer's cold start on this machine: the image's own command (`node --import tsx container/src/server.ts`)
 * from spawn to its `renderer_listening` line (it answers /health: a dispatch can land), and to
 * `face_models_warm` (the face and segmentation models loaded: what an Avatar analysis needs).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface ColdStart {
  readyMs: number;
  modelsMs: number;
}

const TIMEOUT_MS = 180_000;

export function rendererColdStart(): Promise<ColdStart> {
  const workDir = mkdtempSync(join(tmpdir(), "cold-start-"));
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "container/src/server.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", RENDERER_TOKEN: "bench-pool-cold-start", WORK_DIR: workDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise<ColdStart>((resolve, reject) => {
    let readyMs = Number.NaN;
    let done = false;
    const finish = async (err: Error | null, result?: ColdStart) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill("SIGTERM");
      await exited;
      rmSync(workDir, { recursive: true, force: true });
      if (err) reject(err);
      else resolve(result as ColdStart);
    };
    const timer = setTimeout(() => finish(new Error(`no face_models_warm within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    child.once("exit", (code) => finish(new Error(`the renderer exited (${code}) before its models were warm`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      let event: unknown;
      try {
        event = (JSON.parse(line) as { event?: unknown }).event;
      } catch {
        return;
      }
      const at = performance.now() - started;
      if (event === "renderer_listening") readyMs = at;
      if (event === "face_model_warmup_failed") void finish(new Error(`model warm-up failed: ${line}`));
      if (event === "face_models_warm") void finish(null, { readyMs, modelsMs: at });
    });
    child.once("error", (err) => finish(err));
  });
}
