import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../../workers/app";
import { adminFetch } from "../helpers/accounts";
import { json } from "../helpers/open-fixtures";
import { lookup, type OpenApiDocument } from "../helpers/openapi-document";

/** The admin API is declared with createRoute like the public one; its document is generated from the routes. */
describe("admin OpenAPI document", () => {
  it("needs the admin token", async () => {
    expect((await SELF.fetch("http://x/v1/admin/openapi.json")).status).toBe(401);
  });

  it("documents exactly the mounted admin routes, each with the bearer token and the error envelope", async () => {
    const doc = await json<OpenApiDocument>(await adminFetch("/openapi.json"));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0].url).toBe("http://x/v1/admin");
    expect(doc.components.securitySchemes.AdminToken).toMatchObject({ type: "http", scheme: "bearer" });
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m} /v1/admin${p}`),
    );
    const mounted = new Set(
      app.routes
        .filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/admin/"))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    expect(documented.sort()).toEqual([...mounted].sort());
    expect(documented).toHaveLength(19);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        expect(op.security).toEqual([{ AdminToken: [] }]);
        expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/E401" });
      }
    }
    const patch = doc.paths["/accounts/{accountId}"].patch;
    expect(patch.parameters[0]).toMatchObject({ name: "accountId", in: "path", required: true });
    expect(patch.requestBody!.content["application/json"].schema.properties.avatarUnits).toMatchObject({
      type: "integer",
      minimum: 0,
    });
    expect(doc.components.responses.E400.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    expect(doc.paths["/accounts/{accountId}"].get.responses["200"].headers["X-Request-ID"]).toEqual({
      $ref: "#/components/headers/X-Request-ID",
    });
  });

  it("every $ref of the admin and the open document resolves inside its document", async () => {
    const docs = [
      await json<OpenApiDocument>(await adminFetch("/openapi.json")),
      await json<OpenApiDocument>(await SELF.fetch("http://x/v1/open/openapi.json")),
    ];
    for (const doc of docs) {
      const refs: string[] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === "object")
          for (const [k, x] of Object.entries(v)) k === "$ref" && typeof x === "string" ? refs.push(x) : walk(x);
      };
      walk(doc);
      expect(refs.length).toBeGreaterThan(20);
      const unresolved = refs.filter((r) => lookup(doc, r.slice(2).split("/")) === undefined);
      expect(unresolved).toEqual([]);
    }
  });
});
