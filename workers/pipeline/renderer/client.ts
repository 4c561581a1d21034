import type { Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";
import type { RendererPayload } from "./payload";
import { rendererUrlFor, rendererUrlRefusal } from "./renderer-target";

/** The renderer could not take the job now (unreachable, busy, misconfigured): retry later. */
export class RendererUnavailable extends Error {}
/** The renderer refused this payload as invalid (400/422): dispatching it again cannot help. */
export class RendererRejected extends Error {}

const URL_TIMEOUT_MS = 10_000;
/** A sleeping Container needs a few seconds to start before it answers. */
const CONTAINER_TIMEOUT_MS = 60_000;

type RendererEnv = Pick<Env, "RENDERER" | "RENDERER_URL" | "RENDERER_TOKEN" | "ENVIRONMENT">;

/** The Container instance's name; the pool (pool.ts) decides the number. */
export const instanceName = (instance: number) => `renderer-${instance}`;

/**
 * Hands a job run to the renderer (POST /jobs, Bearer RENDERER_TOKEN); the renderer answers 202 at once.
 * Two adapters, one contract: RENDERER_URL (local stack, tests) is a plain fetch; otherwise the RENDERER
 * Container binding. Resolves when the renderer accepted the run (2xx, or 409: it already runs it), with the
 * time to its first answer (a sleeping Container's cold start shows here).
 */
export async function dispatchToRenderer(
  env: RendererEnv,
  payload: RendererPayload,
  instance: number,
): Promise<{ answerMs: number }> {
  const init = {
    method: "POST",
    headers: { authorization: `Bearer ${env.RENDERER_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(payload),
  };
  const refusal = rendererUrlRefusal(env);
  if (refusal) {
    logEvent("renderer_address_refused", { jobId: payload.jobId, error: refusal }, "error");
    throw new RendererUnavailable(refusal);
  }
  let res: Response;
  const started = Date.now();
  try {
    if (env.RENDERER_URL) {
      res = await fetch(`${rendererUrlFor(env.RENDERER_URL, instance)}/jobs`, {
        ...init,
        signal: AbortSignal.timeout(URL_TIMEOUT_MS),
      });
    } else {
      const container = env.RENDERER.getByName(instanceName(instance));
      res = await container.fetch("http://renderer/jobs", {
        ...init,
        signal: AbortSignal.timeout(CONTAINER_TIMEOUT_MS),
      });
    }
  } catch (err) {
    throw new RendererUnavailable(`renderer unreachable: ${String(err)}`);
  }
  const answerMs = Date.now() - started;
  const detail = (await res.text().catch(() => "")).slice(0, 300);
  if (res.ok || res.status === 409) return { answerMs };
  if (res.status === 400 || res.status === 422)
    throw new RendererRejected(`renderer rejected the payload (${res.status}): ${detail}`);
  throw new RendererUnavailable(`renderer answered ${res.status}: ${detail}`);
}
