import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { publicBaseUrl } from "../../http/base-url";
import { honoPath, operations as ops } from "../../openapi/contract";
import { buildOpenApiDocument } from "../../openapi/document";
import { renderReferenceHtml } from "../../openapi/html";

const MOUNT = "/v1/open";

// Generated once per isolate and server URL: the schemas do not change while the Worker runs.
const cache = new Map<string, { doc: Record<string, unknown>; html?: string }>();

function documentFor(origin: string) {
  let entry = cache.get(origin);
  if (!entry) {
    entry = { doc: buildOpenApiDocument(`${origin}`) };
    cache.set(origin, entry);
  }
  return entry;
}

/** Public (no credentials): the API description is not secret and tools fetch it without keys. */
export const referenceRoutes = new Hono<AppEnv>()
  .get(honoPath(ops.getOpenApiDocument, MOUNT), (c) => c.json(documentFor(publicBaseUrl(c)).doc, 200))
  .get(honoPath(ops.getApiReference, MOUNT), (c) => {
    const entry = documentFor(publicBaseUrl(c));
    entry.html ??= renderReferenceHtml(entry.doc);
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(entry.html, 200);
  });
