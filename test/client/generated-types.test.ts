import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("generated client types", () => {
  it("match the Worker's OpenAPI document (run `npm run client:generate` after a contract change)", async () => {
    const check = await promisify(execFile)("node_modules/.bin/tsx", ["scripts/generate-client.ts", "--check"]).catch(
      (e) => e,
    );
    expect(check.stderr ?? "").toBe("");
    expect(check.code ?? 0).toBe(0);
  });
});
