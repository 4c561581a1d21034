import { classifyAddress, isIpLiteralHost } from "@avatar-video/contract";
import type { Env } from "../../platform/env";

/**
 * Where jobs may be dispatched. RENDERER_URL on a loopback or private address is a local-stack value
 * (.dev.vars, scripts/lib/stack.ts, the test config); in production it would hand every job and its signed
 * callback token to whatever listens there. Only a Worker that says it runs in development
 * (ENVIRONMENT=development, set by .dev.vars and the local stack, never by wrangler.toml) may use one.
 */

export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">): boolean => env.ENVIRONMENT === "development";

/** Why RENDERER_URL may not be used here, or null when it may (or is unset: the Container binding is used). */
export function rendererUrlRefusal(env: Pick<Env, "RENDERER_URL" | "ENVIRONMENT">): string | null {
  if (!env.RENDERER_URL || isDevelopment(env)) return null;
  let url: URL;
  try {
    url = new URL(env.RENDERER_URL);
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
