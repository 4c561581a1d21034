import type { Context } from "hono";
import { isDevelopment } from "../config";
import type { AppEnv, Env } from "../env";

/** Fallback for work that runs outside a request (queue consumer, sweep) in development only. */
export const LOCAL_BASE_URL = "http://127.0.0.1:8787";

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Absolute origin for links handed to clients: PUBLIC_BASE_URL when configured, else the request's origin. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  const configured = c.env.PUBLIC_BASE_URL?.trim();
  return configured ? trimSlash(configured) : new URL(c.req.url).origin;
}

type BaseUrlEnv = Pick<Env, "PUBLIC_BASE_URL" | "ENVIRONMENT">;

/**
 * Why background work cannot build links, or null. Outside development an empty PUBLIC_BASE_URL would hand
 * the renderer loopback callbacks that never arrive, so the queue consumer and the sweep refuse to run.
 */
export function backgroundBaseUrlProblem(env: BaseUrlEnv): string | null {
  if (env.PUBLIC_BASE_URL?.trim() || isDevelopment(env)) return null;
  return "PUBLIC_BASE_URL is empty: outside development renderer callbacks, object and upload links are built from it; set it in wrangler.toml [vars] (or wrangler deploy --var PUBLIC_BASE_URL:https://…)";
}

/** Origin for links built without a request (renderer callbacks, object and upload URLs). */
export function backgroundBaseUrl(env: BaseUrlEnv): string {
  const problem = backgroundBaseUrlProblem(env);
  if (problem) throw new Error(problem);
  const configured = env.PUBLIC_BASE_URL?.trim();
  return configured ? trimSlash(configured) : LOCAL_BASE_URL;
}
