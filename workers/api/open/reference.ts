import { createRoute } from "@hono/zod-openapi";
import { Hono } from "hono";
import type { AppEnv } from "../../platform/env";
import { publicBaseUrl } from "../../platform/http/base-url";
import { openApiApp } from "../../platform/http/openapi-app";
import { staticAsset } from "../../platform/http/static-asset";
import { OpenApiDocument } from "../openapi/document";
import { REFERENCE_PAGE_CSP, REFERENCE_SCRIPTS, referencePageHtml } from "../openapi/reference-page";
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
  summary:
    "Interactive API reference of this document: search, request builder, code samples (public, no authentication)",
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
 * GET /v1/open/openapi.json and /v1/open/docs (Scalar's reference over the document: openapi/reference-page.ts).
 * Public (no credentials): the API description is not secret and tools fetch it without keys.
 * `generate(serverUrl)` builds the document of the whole public API (the caller mounts these routes into it);
 * it runs once per isolate and server URL, as the routes do not change while the Worker runs.
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
      entry.html ??= referencePageHtml(entry.doc, "/v1/open/openapi.json");
      c.header("Content-Security-Policy", REFERENCE_PAGE_CSP);
      c.header("X-Content-Type-Options", "nosniff");
      c.header("Referrer-Policy", "same-origin");
      return c.html(entry.html, 200);
    });
}

/** /reference/*: the reference page's two scripts, files of static/reference/ (not operations of the API). */
export const referenceAssetRoutes = new Hono<AppEnv>();
for (const path of REFERENCE_SCRIPTS) {
  referenceAssetRoutes.get(path.slice("/reference".length), async (c) => {
    const res = await staticAsset(c);
    res.headers.set("X-Content-Type-Options", "nosniff");
    return res;
  });
}
