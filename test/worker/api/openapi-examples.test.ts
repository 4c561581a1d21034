import { SELF } from "cloudflare:test";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { publicApi } from "../../../workers/api/public-api";
import { OPEN_API_EXAMPLES } from "../../../workers/api/openapi/examples";

type Json = Record<string, unknown>;
const BASE = "http://127.0.0.1:8787";
const isZod = (s: unknown): s is z.ZodType => typeof s === "object" && s !== null && "_zod" in s;
/** The zod schema of a route's JSON media type (a $ref has none). */
const jsonSchemaOf = (content: Record<string, unknown> | undefined) => {
  const media = content?.["application/json"];
  return typeof media === "object" && media !== null && "schema" in media ? media.schema : undefined;
};

describe("OpenAPI that teaches", () => {
  it("every example parses with its route's own zod schema (request body and 2xx response)", () => {
    const routes = publicApi.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : []));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const ex = OPEN_API_EXAMPLES[route.operationId ?? ""];
      expect(ex, `example for ${route.operationId}`).toBeDefined();
      const reqSchema = jsonSchemaOf(route.request?.body?.content);
      if (isZod(reqSchema))
        expect(reqSchema.safeParse(ex.request).error, `${route.operationId} request`).toBeUndefined();
      const ok = Object.entries(route.responses).find(([s]) => s.startsWith("2"))?.[1];
      const resSchema = ok && "content" in ok ? jsonSchemaOf(ok.content) : undefined;
      if (isZod(resSchema))
        expect(resSchema.safeParse(ex.response).error, `${route.operationId} response`).toBeUndefined();
    }
  });

  it("the served document has request and response examples and curl, Node and Python x-codeSamples on every operation", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/v1/open/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Json>>;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${path}`;
        const body = (op.requestBody as { content?: Record<string, Json> } | undefined)?.content;
        if (body) expect(body["application/json"].example, where).toBeDefined();
        const responses = op.responses as Record<string, { content?: Record<string, Json> }>;
        const ok = Object.entries(responses).find(([s]) => s.startsWith("2"))![1];
        expect(Object.values(ok.content ?? {})[0]?.example, where).toBeDefined();
        const samples = op["x-codeSamples"] as { lang: string; label: string; source: string }[];
        expect(
          samples.map((s) => `${s.lang}: ${s.label}`),
          where,
        ).toEqual(["Shell: curl", "JavaScript: Node SDK", "Python: Python SDK"]);
        expect(samples[0].source, where).toContain(`curl -s`);
        // Operations with credentials start from the client, which reads them from AVATAR_VIDEO_*.
        if ((op.security as unknown[]).length > 0) {
          expect(samples[1].source, where).toContain("const av = new AvatarVideo();");
          expect(samples[2].source, where).toContain("av = AvatarVideo()");
        }
      }
    }
    const create = doc.paths["/v1/open/videos"].post["x-codeSamples"] as { source: string }[];
    expect(create[0].source).toContain('-H "X-App-ID: $AVATAR_VIDEO_APP_ID"');
    expect(create[0].source).toContain(`"${BASE}/v1/open/videos"`);
    expect(create[1].source).toContain("await av.videos.create(");
    expect(create[2].source).toContain("av.videos.create(avatar_id=");
    const token = doc.paths["/v1/console/session-tokens"].post["x-codeSamples"] as { source: string }[];
    expect(token[1].source).toContain("av.sessionTokens.create(");
    expect(token[2].source).toContain("av.session_tokens.create(");
  });
});
