import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./openapi.js";
import { retryingFetch } from "./retry.js";

export interface ClientOptions {
  /** Server root, e.g. `http://127.0.0.1:8787` (paths carry the `/v1/open` prefix). */
  baseUrl: string;
  appId: string;
  apiKey: string;
  /** Retries after the first attempt on 429, 500, 503 and lost connections (default 2). */
  maxRetries?: number;
  /** Bounds each attempt, in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** The fetch to send with (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** The typed low-level client: any path of the OpenAPI document, with the SDK's credentials, retries and timeouts. */
export type ApiClient = Client<paths>;

export function createApiClient(options: ClientOptions): ApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    // Kept inside the client's closure, never on an object a log could print.
    headers: { "X-App-ID": options.appId, "X-API-Key": options.apiKey },
    fetch: retryingFetch({
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
    }),
  });
}
