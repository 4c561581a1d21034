import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../../workers/app";
import { json } from "../helpers/open-fixtures";
import { lookup, type OpenApiDocument } from "../helpers/openapi-document";

const SPEC_ROUTES = [
  "post /v1/open/avatars",
  "get /v1/open/avatar-jobs",
  "get /v1/open/avatar-jobs/{jobId}",
  "get /v1/open/avatars",
  "get /v1/open/avatars/{avatarId}",
  "post /v1/open/videos",
  "get /v1/open/video-jobs/{jobId}",
  "get /v1/open/video-jobs",
  "post /v1/console/session-tokens",
];

async function fetchDoc(): Promise<OpenApiDocument> {
  return json<OpenApiDocument>(await SELF.fetch("http://x/v1/open/openapi.json"));
}

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is public OpenAPI 3.1 with version 1.0.0 and the request's server", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers[0].url).toBe("http://x");
  });

  it("lists all nine routes of the spec with their security", async () => {
    const doc = await fetchDoc();
    const listed = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    for (const route of SPEC_ROUTES) expect(listed).toContain(route);
    expect(doc.paths["/v1/open/videos"].post.security).toEqual([{ AppId: [], ApiKey: [] }]);
    expect(doc.paths["/v1/console/session-tokens"].post.security).toEqual([{ ApiKey: [] }]);
    expect(doc.components.securitySchemes.AppId).toMatchObject({ type: "apiKey", in: "header", name: "X-App-ID" });
  });

  it("every $ref resolves", async () => {
    const doc = await fetchDoc();
    for (const ref of refs(doc)) {
      const target = lookup(doc, ref.replace(/^#\//, "").split("/"));
      expect(target, ref).toBeTruthy();
    }
  });

  it("component schemas come from the zod schemas, rules included", async () => {
    const { components } = await fetchDoc();
    const s = components.schemas;
    for (const id of [
      "CreateAvatarRequest",
      "CreateVideoRequest",
      "VideoSettings",
      "VideoJob",
      "VideoJobDetail",
      "VideoJobList",
      "Avatar",
      "AvatarJob",
      "AvatarJobList",
      "AvatarList",
      "Pagination",
      "Error",
      "SessionTokenRequest",
      "SessionTokenResponse",
    ]) {
      expect(s[id], id).toBeTruthy();
    }
    expect(s.CreateVideoRequest.required).toEqual(["avatarId", "audioUrl"]);
    expect(s.CreateVideoRequest.additionalProperties).toBe(false);
    expect(s.CreateVideoRequest.properties.video).toEqual({ $ref: "#/components/schemas/VideoSettings" });
    expect(s.CreateVideoRequest.properties.audioUrl).toMatchObject({ type: "string", maxLength: 4096, format: "uri" });
    expect(s.CreateVideoRequest.properties.name).toMatchObject({ minLength: 1, maxLength: 128 });
    expect(s.VideoSettings.properties.width).toMatchObject({
      type: "integer",
      minimum: 64,
      maximum: 1920,
      multipleOf: 2,
      default: 1024,
    });
    expect(s.VideoSettings.properties.fit.enum).toEqual(["crop", "contain"]);
    expect(s.VideoSettings.properties.backgroundFit.enum).toEqual(["cover", "contain", "stretch"]);
    expect(s.VideoSettings.properties.leadInSeconds).toMatchObject({ minimum: 0, maximum: 60 });
    expect(s.VideoJob.properties.status.enum).toEqual(["queued", "processing", "succeeded", "failed", "expired"]);
    expect(s.VideoJob.required).not.toContain("completedAt");
    expect(s.VideoJob.required).not.toContain("error");
    expect(s.AvatarJob.required).not.toContain("avatarId");
    expect(s.Avatar.required).not.toContain("backgroundImageUrl");
    expect(s.VideoJobList.properties.jobs.items).toEqual({ $ref: "#/components/schemas/VideoJob" });
    expect(s.Pagination.required).toEqual(["nextPageToken", "totalCount"]);
  });

  it("documents the list query parameters under their literal names", async () => {
    const doc = await fetchDoc();
    const params = doc.paths["/v1/open/video-jobs"].get.parameters;
    expect(params.map((p) => p.name)).toEqual(["statuses", "pagination.pageSize", "pagination.pageToken"]);
    expect(params[0]).toMatchObject({ in: "query", style: "form", explode: true });
    const path = doc.paths["/v1/open/video-jobs/{jobId}"].get.parameters;
    expect(path[0]).toMatchObject({ name: "jobId", in: "path", required: true, schema: { format: "uuid" } });
  });

  it("documents errors with the envelope and 429 with Retry-After", async () => {
    const doc = await fetchDoc();
    const create = doc.paths["/v1/open/avatars"].post.responses;
    for (const status of ["400", "401", "402", "403", "429"])
      expect(create[status]).toEqual({ $ref: `#/components/responses/E${status}` });
    expect(doc.components.responses.E429.headers["Retry-After"]).toBeTruthy();
    expect(doc.components.responses.E400.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    expect(doc.paths["/v1/open/video-jobs"].get.responses["200"].headers.RateLimit).toBeTruthy();
  });

  it("cannot drift: the mounted /v1/open and /v1/console routes are exactly the document's operations", async () => {
    const doc = await fetchDoc();
    const mounted = new Set(
      app.routes
        .filter((r) => r.method !== "ALL" && /^\/v1\/(open|console)\//.test(r.path))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`)),
    );
    expect([...mounted].sort()).toEqual([...documented].sort());
    expect(mounted.size).toBe(12);
  });
});
