import type { Env } from "../../platform/env";
import { RendererUnavailable, instanceName } from "./client";
import { rendererInstances, rendererUrlFor } from "./renderer-target";

/**
 * The download allows 10 s (first byte within 3 s), the analysis of a 2 MP photo well under 1 s; a
 * sleeping Container needs a few seconds more to start.
 */
const URL_TIMEOUT_MS = 20_000;
const CONTAINER_TIMEOUT_MS = 40_000;

type RendererEnv = Pick<Env, "RENDERER" | "RENDERER_URL" | "RENDERER_TOKEN" | "RENDERER_INSTANCES">;

/**
 * The renderer's synchronous pre-flight check (POST /checks, Bearer RENDERER_TOKEN; container/src/avatar/preflight.ts).
 * Same two adapters as dispatch (client.ts): RENDERER_URL, else the RENDERER Container binding (any
 * instance: a check holds no state). Resolves with the renderer's JSON answer; throws RendererUnavailable
 * when there is no usable answer.
 */
export async function checkOnRenderer(env: RendererEnv, imageUrl: string): Promise<unknown> {
  const init = {
    method: "POST",
    headers: { authorization: `Bearer ${env.RENDERER_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ imageUrl }),
  };
  let res: Response;
  const instance = Math.floor(Math.random() * rendererInstances(env));
  try {
    if (env.RENDERER_URL) {
      res = await fetch(`${rendererUrlFor(env.RENDERER_URL, instance)}/checks`, {
        ...init,
        signal: AbortSignal.timeout(URL_TIMEOUT_MS),
      });
    } else {
      res = await env.RENDERER.getByName(instanceName(instance)).fetch("http://renderer/checks", {
        ...init,
        signal: AbortSignal.timeout(CONTAINER_TIMEOUT_MS),
      });
    }
  } catch (err) {
    throw new RendererUnavailable(`renderer unreachable: ${String(err)}`);
  }
  const text = await res.text().catch(() => "");
  if (res.status !== 200) throw new RendererUnavailable(`renderer answered ${res.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new RendererUnavailable("renderer answered 200 without JSON");
  }
}
