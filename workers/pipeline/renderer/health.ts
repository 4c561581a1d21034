import type { Env } from "../../platform/env";
import { instanceName } from "./client";
import { rendererPoolLoad } from "./pool";
import { rendererInstances, rendererUrlRefusal, rendererUrls } from "./renderer-target";

type HealthEnv = Pick<
  Env,
  | "RENDERER"
  | "RENDERER_URL"
  | "ENVIRONMENT"
  | "RENDERER_POOL"
  | "RENDERER_INSTANCES"
  | "RENDERER_ACCOUNT_SHARE"
  | "JOBS"
>;

/** The renderers as GET /health reports them to operators (docs/operations.md, "Health"). */
export interface RendererHealth {
  /** False when an instance could not be asked or did not answer. */
  ok: boolean;
  instances: number;
  /** RENDERER_URL: renderers that answered their GET /health with 200 (a draining one answers 503). */
  reachable?: number;
  /** Containers: instances running now; the others sleep and start on their next dispatch (not probed: that would wake them). */
  awake?: number;
  /** Renders holding an instance, and renders in the pool's line (RendererPool's counters). */
  running: number;
  waiting: number;
}

/** The pool's counters and each instance's state, every call bounded by `timeoutMs`. */
export async function rendererHealth(env: HealthEnv, timeoutMs: number): Promise<RendererHealth> {
  const [load, instances] = await Promise.all([
    rendererPoolLoad(env),
    env.RENDERER_URL ? urlRenderers(env, env.RENDERER_URL, timeoutMs) : containerRenderers(env),
  ]);
  return { ...instances, ...load };
}

/** Local stack and tests: a GET /health to each listed renderer. */
async function urlRenderers(env: HealthEnv, value: string, timeoutMs: number) {
  const refusal = rendererUrlRefusal(env);
  if (refusal) throw new Error(refusal);
  const urls = rendererUrls(value);
  const answers = await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
        return res.status === 200;
      } catch {
        return false;
      }
    }),
  );
  const reachable = answers.filter(Boolean).length;
  return { ok: reachable === urls.length, instances: urls.length, reachable };
}

/** Production: each Container's recorded state (read from its object; a sleeping container is not started). */
async function containerRenderers(env: HealthEnv) {
  const instances = rendererInstances(env);
  const states = await Promise.all(
    Array.from({ length: instances }, (_, i) => env.RENDERER.getByName(instanceName(i)).getState()),
  );
  const awake = states.filter((s) => s.status === "running" || s.status === "healthy").length;
  return { ok: true, instances, awake };
}
