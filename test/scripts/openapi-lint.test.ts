import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The public OpenAPI document lints clean with Redocly's recommended rules (redocly.yaml): a licence, a 4xx on
 * every operation, examples that match their schemas (URIs included). It lints the snapshot, which
 * test/worker/api/openapi-snapshot.test.ts holds equal to the served document byte for byte. The only exceptions
 * are the ones .redocly.lint-ignore.yaml lists with their reason.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe("OpenAPI lint", () => {
  it("the public document has no Redocly problems beyond the two listed exceptions", () => {
    const out = execFileSync(
      `${root}node_modules/.bin/redocly`,
      ["lint", "test/worker/fixtures/openapi/open.json", "--format=json"],
      {
        cwd: root,
        encoding: "utf8",
        // No usage report and no update check: the test needs no network.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const report = JSON.parse(out) as LintReport;
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 2 });
  });
});
