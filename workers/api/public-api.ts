import { openApiApp } from "../platform/http/openapi-app";
import { withExamples } from "./openapi/code-samples";
import { generateDocument } from "./openapi/document";
import { OPEN_API_EXAMPLES } from "./openapi/examples";
import { createSessionTokenRoute } from "./session-tokens/create-session-token";
import { openRoutes } from "./open/routes";
import { referenceAssetRoutes, referenceRoutes } from "./open/reference";

/**
 * The public API: /v1/open and /v1/console/session-tokens, and the OpenAPI document generated from
 * exactly these routes (served at /v1/open/openapi.json and shown at /v1/open/docs, whose scripts are under
 * /reference/).
 */
export const publicApi = openApiApp()
  .route("/v1/open", openRoutes)
  .route("/v1/console", createSessionTokenRoute)
  .route(
    "/v1/open",
    referenceRoutes((serverUrl) => buildOpenApiDocument(serverUrl)),
  )
  .route("/reference", referenceAssetRoutes);

export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const doc = generateDocument(publicApi, serverUrl, {
    title: "Avatar and Video Open API",
    version: "1.0.0",
    description:
      "HTTP and JSON API for backends: Avatar creation from an image, video rendering from an Avatar and an audio file, reads of Avatars and jobs, and session tokens. Private beta: access is enabled per account. Every response carries X-Request-ID; every error uses the Error envelope.",
    tags: [
      { name: "Avatars", description: "Avatar creation jobs and Avatars" },
      { name: "Videos", description: "Video jobs: URL inputs and polling only" },
      { name: "Session tokens", description: "Console endpoint (X-API-Key only)" },
      { name: "Reference", description: "This document and its HTML rendering" },
    ],
  });
  return withExamples(doc, OPEN_API_EXAMPLES);
}
