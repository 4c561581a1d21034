import createClient, { type Client } from "openapi-fetch";
import { type ClientOptions, resolveOptions } from "./config.js";
import type { paths } from "./openapi.js";
import { retryingFetch } from "./retry.js";
import { VERSION } from "./version.js";

export const USER_AGENT = `avatar-video-node/${VERSION}`;

/** The typed low-level client: any path of the OpenAPI document, with the SDK's credentials, retries and timeouts. */
export type ApiClient = Client<paths>;

/** Options every call takes (the last argument). */
export interface RequestOptions {
  /** Cancels the call, its retries and the waits between them. */
  signal?: AbortSignal;
  /** Bounds each attempt of this call, in milliseconds (default: the client's `timeout`). */
  timeout?: number;
  /** @deprecated Use `timeout` (also milliseconds). */
  timeoutMs?: number;
  /** Retries of this call after its first attempt (default: the client's `maxRetries`). */
  maxRetries?: number;
}

/** The connection of a client: its typed client, and what one call passes to it. */
export interface Transport {
  api: ApiClient;
  /** openapi-fetch options of one call: its signal, and a fetch of its own when it overrides timeout or retries. */
  init(options: RequestOptions): { signal?: AbortSignal; fetch?: (request: Request) => Promise<Response> };
}

/** The headers of every request. A browser sends its own User-Agent (and another would need CORS approval). */
function headers(appId: string, apiKey: string): Record<string, string> {
  const inBrowser = typeof (globalThis as { document?: unknown }).document !== "undefined";
  return { "X-App-ID": appId, "X-API-Key": apiKey, ...(inBrowser ? {} : { "User-Agent": USER_AGENT }) };
}

export function createTransport(options: ClientOptions = {}): Transport {
  // The key stays inside these closures, never on an object a log could print.
  const { baseUrl, appId, apiKey, ...retry } = resolveOptions(options);
  const api = createClient<paths>({ baseUrl, headers: headers(appId, apiKey), fetch: retryingFetch(retry) });
  return {
    api,
    init: ({ signal, timeout: ms, timeoutMs, maxRetries }) => {
      const timeout = ms ?? timeoutMs;
      if (timeout === undefined && maxRetries === undefined) return { signal };
      const fetch = retryingFetch({
        ...retry,
        timeout: timeout ?? retry.timeout,
        maxRetries: maxRetries ?? retry.maxRetries,
      });
      return { signal, fetch };
    },
  };
}

export function createApiClient(options: ClientOptions = {}): ApiClient {
  return createTransport(options).api;
}
