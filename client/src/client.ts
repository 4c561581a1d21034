import createFetchClient, { type Client } from "openapi-fetch";
import type { paths } from "./openapi";

export type { paths, components, operations } from "./openapi";

export interface Credentials {
  /** Server root, e.g. `http://127.0.0.1:8787` (paths carry the `/v1/open` prefix). */
  baseUrl: string;
  appId: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}

export type AvatarVideoClient = Client<paths>;

/** A typed client of the Open API: every path, parameter and body checked against the OpenAPI document. */
export function createAvatarVideoClient(creds: Credentials): AvatarVideoClient {
  return createFetchClient<paths>({
    baseUrl: creds.baseUrl.replace(/\/+$/, ""),
    headers: { "X-App-ID": creds.appId, "X-API-Key": creds.apiKey },
    ...(creds.fetch ? { fetch: creds.fetch } : {}),
  });
}
