import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { operationOf, type PostmanCollection, requestsOf } from "../../scripts/openapi-postman";
import open from "../worker/fixtures/openapi/open.json";

/** `npm run openapi:postman` writes a Postman collection with every operation of the public document. */
const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "postman-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Operation = { security?: Record<string, string[]>[] };
const operations = Object.entries(open.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({
    key: `${method} ${path}`,
    schemes: Object.keys(op.security?.[0] ?? {}),
  })),
);

describe("npm run openapi:postman", () => {
  it("writes a collection with one request per operation, each sending the headers its security names", () => {
    const out = join(dir, "collection.json");
    execFileSync("npm", ["run", "--silent", "openapi:postman", "--", "--out", out], { cwd: root, stdio: "pipe" });
    const collection = JSON.parse(readFileSync(out, "utf8")) as PostmanCollection;
    expect(collection.info.schema).toContain("collection/v2.1.0");
    expect(collection.variable.map((v) => v.key)).toEqual(["baseUrl", "appId", "apiKey"]);

    const requests = requestsOf(collection.item);
    expect(requests.map(operationOf).sort()).toEqual(operations.map((o) => o.key).sort());
    for (const request of requests) {
      const { schemes } = operations.find((o) => o.key === operationOf(request))!;
      const headers = Object.fromEntries((request.header ?? []).map((h) => [h.key, h.value]));
      expect(headers["X-App-ID"], operationOf(request)).toBe(schemes.includes("AppId") ? "{{appId}}" : undefined);
      expect(headers["X-API-Key"], operationOf(request)).toBe(schemes.includes("ApiKey") ? "{{apiKey}}" : undefined);
      expect(request.auth, operationOf(request)).toBeUndefined(); // not the converter's single-key auth
      expect(request.url.host).toEqual(["{{baseUrl}}"]);
    }
    expect(operations.length).toBeGreaterThanOrEqual(12);
  });
});
