import { mkdirSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { ensureDevVars } from "../../scripts/lib/dev-vars";
import { startStack } from "../../scripts/lib/stack";
import { startMediaServer } from "./media-server";

// Ports of the e2e stack: distinct from `npm start` (8787/8790) so both can run side by side. E2E_PORT_BASE
// moves the ports and the state directory, so two checkouts (or two people) can run e2e at once. From the base:
// the media server, the Worker, then one port per renderer.
export const BASE = Number(process.env.E2E_PORT_BASE ?? 8796);

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    mediaUrl: string;
    mediaDir: string;
    rendererUrls: string[];
  }
}

export default (project: TestProject) => startE2eStack(project, 1, BASE);

/** The stack of an e2e suite; the e2e-scale project runs its own with three renderer instances. */
export async function startE2eStack(
  project: TestProject,
  rendererInstances: number,
  base: number,
  workerVars: Record<string, string> = {},
) {
  const [mediaPort, port, rendererPort] = [base, base + 1, base + 2];
  const state = `.local/e2e-state-${base}`;
  const mediaDir = `.local/e2e-media-${base}`;
  rmSync(state, { recursive: true, force: true });
  mkdirSync(mediaDir, { recursive: true });
  const vars = ensureDevVars(".dev.vars");
  const controls: Record<string, () => Promise<void>> = {};
  const media = await startMediaServer(mediaDir, mediaPort, controls);
  const stack = await startStack({
    port,
    rendererPort,
    rendererInstances,
    persistTo: state,
    sourceAllowlist: `127.0.0.1:${mediaPort}`,
    vars,
    // Renderer deaths are noticed after 12 s of silence instead of 30 s, by a sweep every 2 s (docs/operations.md):
    // the tests that kill the renderer wait for this seven times. Not below 12 s: a dispatch to a hung renderer
    // gives up after 10 s and must hand the job back (queued) before the sweep could call its claim stalled.
    sweepEveryMs: 2_000,
    workerVars: { STALL_AFTER_SECONDS: "12", ...workerVars },
    rendererEnv: { HEARTBEAT_MS: "2000" },
  });
  controls["restart-renderer"] = () => stack.restartRenderer();
  // kill -9 of the renderer's pid alone (no waiting): the supervisor must bring it back.
  controls["kill-renderer"] = async () => {
    if (stack.rendererPid) process.kill(stack.rendererPid, "SIGKILL");
  };
  // SIGSTOP: a hung renderer (accepts connections, never answers) until kill-renderer ends it.
  controls["pause-renderer"] = async () => {
    if (stack.rendererPid) process.kill(stack.rendererPid, "SIGSTOP");
  };
  controls.sweep = () => stack.sweep();
  project.provide("baseUrl", stack.baseUrl);
  project.provide("adminToken", vars.ADMIN_TOKEN);
  project.provide("mediaUrl", `http://127.0.0.1:${mediaPort}`);
  project.provide("mediaDir", mediaDir);
  project.provide("rendererUrls", stack.rendererUrls);
  return async () => {
    await stack.stop();
    media.close();
  };
}
