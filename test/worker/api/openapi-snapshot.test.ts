import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import admin from "../fixtures/openapi/admin.json";
import open from "../fixtures/openapi/open.json";

/**
 * The OpenAPI documents, byte for byte, against the committed snapshots: a refactor must not change what
 * callers read. A contract change updates the snapshot in the same commit (the diff shows what changed):
 * `npm run openapi:snapshot` rewrites both files.
 */
const BASE = "http://127.0.0.1:8787";

/** Where two texts first differ, with context, so a failure shows the change and not two whole documents. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  return `at ${i}: got …${actual.slice(Math.max(0, i - 80), i + 80)}… expected …${expected.slice(Math.max(0, i - 80), i + 80)}…`;
}

describe("OpenAPI documents", () => {
  it("/v1/open/openapi.json equals the snapshot", async () => {
    const res = await SELF.fetch(`${BASE}/v1/open/openapi.json`);
    expect(firstDifference(await res.text(), JSON.stringify(open))).toBeUndefined();
  });

  it("/v1/admin/openapi.json equals the snapshot", async () => {
    const res = await SELF.fetch(`${BASE}/v1/admin/openapi.json`, {
      headers: { Authorization: "Bearer test-admin-token" },
    });
    expect(firstDifference(await res.text(), JSON.stringify(admin))).toBeUndefined();
  });
});
