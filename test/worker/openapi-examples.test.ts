import { SELF } from "cloudflare:test";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { publicApi } from "../../workers/api/public-api";
import { OPEN_API_EXAMPLES } from "../../workers/api/openapi/examples";

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

  it("the served document has request and response examples and curl + SDK x-codeSamples on every operation", async () => {
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
        const samples = op["x-codeSamples"] as { label: string; source: string }[];
        expect(
          samples.map((s) => s.label),
          where,
        ).toEqual(["curl", "SDK (@avatar-video/client)"]);
        expect(samples[0].source, where).toContain(`curl -s`);
        expect(samples[1].source, where).toContain("new AvatarVideo(");
      }
    }
    const create = doc.paths["/v1/open/videos"].post["x-codeSamples"] as { source: string }[];
    expect(create[0].source).toContain('-H "X-App-ID: $AVATAR_VIDEO_APP_ID"');
    expect(create[0].source).toContain(`"${BASE}/v1/open/videos"`);
  });

  it("the reference page shows the code samples and the examples", async () => {
    const html = await (await SELF.fetch(`${BASE}/v1/open/docs`)).text();
    const section = html.slice(
      html.indexOf('<section id="createVideo">'),
      html.indexOf("</section>", html.indexOf('<section id="createVideo">')),
    );
    expect(section).toContain("<h4>Code samples</h4>");
    expect(section).toContain("curl -s -X POST &quot;http://127.0.0.1:8787/v1/open/videos&quot;");
    expect(section).toContain("await av.videos.create(");
    expect(section).toContain("Example request");
    expect(section).toContain("Example response");
  });
});
