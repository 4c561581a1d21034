import { createRoute } from "@hono/zod-openapi";
import { publicBaseUrl } from "../../platform/http/base-url";
import { openApiApp } from "../../platform/http/openapi-app";
import { OpenApiDocument } from "../openapi/document";
import { renderReferenceHtml } from "../openapi/html";
import { NO_AUTH } from "../../platform/http/route-parts";

type Document = Record<string, unknown>;
const requestIdHeader = { "X-Request-ID": { $ref: "#/components/headers/X-Request-ID" } };

const documentRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["Reference"],
  summary: "This OpenAPI 3.1 document (public, no authentication)",
  security: NO_AUTH,
  responses: {
    200: {
      description: "OpenAPI 3.1 document",
      headers: requestIdHeader,
      content: { "application/json": { schema: OpenApiDocument } },
    },
  },
});

const pageRoute = createRoute({
  method: "get",
  path: "/docs",
  operationId: "getApiReference",
  tags: ["Reference"],
  summary: "Human-readable API reference generated from this document (public, no authentication)",
  security: NO_AUTH,
  responses: {
    200: {
      description: "HTML page",
      headers: requestIdHeader,
      content: { "text/html": { schema: { type: "string" } } },
    },
  },
});

/**
 * GET /v1/open/openapi.json and /v1/open/docs. Public (no credentials): the API description is not secret
 * and tools fetch it without keys. `generate(serverUrl)` builds the document of the whole public API (the
 * caller mounts these routes into it); it runs once per isolate and server URL, as the routes do not
 * change while the Worker runs.
 */
export function referenceRoutes(generate: (serverUrl: string) => Document) {
  const cache = new Map<string, { doc: Document; html?: string }>();
  const documentFor = (origin: string) => {
    let entry = cache.get(origin);
    if (!entry) cache.set(origin, (entry = { doc: generate(origin) }));
    return entry;
  };
  return openApiApp()
    .openapi(documentRoute, (c) => c.json(documentFor(publicBaseUrl(c)).doc, 200))
    .openapi(pageRoute, (c) => {
      const entry = documentFor(publicBaseUrl(c));
      entry.html ??= renderReferenceHtml(entry.doc);
      c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
      return c.html(entry.html, 200);
    });
}
