import { classifyAddress, isIpLiteralHost } from "@avatar-video/contract";
import { isDevelopment, workerConfig } from "../../platform/config";
import type { Env } from "../../platform/env";
import { type PoolConfig, poolConfig } from "./pool-config";

/**
 * Where jobs may be dispatched. RENDERER_URL on a loopback or private address is a local-stack value
 * (.dev.vars, scripts/lib/stack.ts, the test config); in production it would hand every job and its signed
 * callback token to whatever listens there. Only a Worker that says it runs in development
 * (ENVIRONMENT=development, set by .dev.vars and the local stack, never by wrangler.toml) may use one.
 */

/** The configured ceiling of renderer instances (RENDERER_INSTANCES, equal to the containers' max_instances). */
export const rendererInstances = (env: Pick<Env, "RENDERER_INSTANCES">): number => workerConfig(env).RENDERER_INSTANCES;

/**
 * Instances, the cap per account (RENDERER_ACCOUNT_SHARE of them while other accounts wait) and the
 * first-render reserve (pool-config.ts poolConfig).
 */
export function rendererPoolConfig(env: Pick<Env, "RENDERER_INSTANCES" | "RENDERER_ACCOUNT_SHARE">): PoolConfig {
  const config = workerConfig(env);
  return poolConfig(config.RENDERER_INSTANCES, config.RENDERER_ACCOUNT_SHARE);
}

/** RENDERER_URL may list several renderers (comma-separated: the local stack's instances); instance i uses the i-th, cyclically. */
export const rendererUrls = (value: string): string[] =>
  value
    .split(",")
    .map((u) => u.trim().replace(/\/+$/, ""))
    .filter(Boolean);

export function rendererUrlFor(value: string, instance: number): string {
  const urls = rendererUrls(value);
  return urls[instance % urls.length];
}

/** Why RENDERER_URL may not be used here, or null when it may (or is unset: the Container binding is used). */
export function rendererUrlRefusal(env: Pick<Env, "RENDERER_URL" | "ENVIRONMENT">): string | null {
  if (!env.RENDERER_URL || isDevelopment(env)) return null;
  for (const url of rendererUrls(env.RENDERER_URL)) {
    const refusal = urlRefusal(url);
    if (refusal) return refusal;
  }
  return null;
}

function urlRefusal(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "RENDERER_URL is not an absolute URL";
  }
  const host = url.hostname.toLowerCase();
  let cls: string = "public";
  if (host === "localhost" || host.endsWith(".localhost")) cls = "loopback";
  else if (isIpLiteralHost(host)) cls = classifyAddress(host.replace(/^\[|\]$/g, ""));
  if (cls === "public") return null;
  return `RENDERER_URL ${url.origin} is a ${cls} address; only a Worker with ENVIRONMENT=development dispatches there (unset RENDERER_URL to use the RENDERER Container binding)`;
}
