import type { RequestHooks } from "./hooks.js";

/** The local stack of this repository (`npm start`); set `baseUrl` or AVATAR_VIDEO_BASE_URL for any other. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export interface ClientOptions extends RequestHooks {
  /** Server root, e.g. `https://api.example.com` (paths carry the `/v1/open` prefix). Default: AVATAR_VIDEO_BASE_URL, else the local stack. */
  baseUrl?: string;
  /** Default: AVATAR_VIDEO_APP_ID. */
  appId?: string;
  /** Default: AVATAR_VIDEO_API_KEY. Keep it on a server: never ship it to a browser or an app. */
  apiKey?: string;
  /** Retries after the first attempt on 408, 429, 500, 502, 503, 504 and lost connections (default 2). */
  maxRetries?: number;
  /** Bounds each attempt, in milliseconds (default 60 000). */
  timeout?: number;
  /** @deprecated Use `timeout` (also milliseconds). */
  timeoutMs?: number;
  /** The fetch to send with (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** The options with every default filled in. */
export interface Settings extends RequestHooks {
  baseUrl: string;
  appId: string;
  apiKey: string;
  maxRetries: number;
  timeout: number;
  fetch: typeof globalThis.fetch;
}

/** A variable of Node's environment; undefined in a Worker or a browser, which have no `process`. */
function env(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name] || undefined;
}

/** Fills in omitted options from AVATAR_VIDEO_BASE_URL, _APP_ID and _API_KEY, then the defaults. */
export function resolveOptions(options: ClientOptions = {}): Settings {
  const appId = options.appId ?? env("AVATAR_VIDEO_APP_ID");
  const apiKey = options.apiKey ?? env("AVATAR_VIDEO_API_KEY");
  if (!appId) throw new TypeError("AvatarVideo: no appId (pass { appId } or set AVATAR_VIDEO_APP_ID)");
  if (!apiKey) throw new TypeError("AvatarVideo: no apiKey (pass { apiKey } or set AVATAR_VIDEO_API_KEY)");
  const { timeoutMs, ...rest } = options;
  return {
    ...rest,
    baseUrl: (options.baseUrl ?? env("AVATAR_VIDEO_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
    appId,
    apiKey,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeout ?? timeoutMs ?? 60_000,
    // Bound late, so a fetch patched after construction (test doubles, instrumentation) is the one used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}
