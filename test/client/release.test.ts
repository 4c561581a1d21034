import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nextVersion, releaseChangelog } from "../../client/scripts/release.js";

describe("client/scripts/release.ts", () => {
  it("bumps patch, minor and major, or takes a higher x.y.z", () => {
    expect(["patch", "minor", "major", "0.3.0"].map((b) => nextVersion("0.2.9", b))).toEqual([
      "0.2.10",
      "0.3.0",
      "1.0.0",
      "0.3.0",
    ]);
    expect(() => nextVersion("0.2.9", "0.2.9")).toThrow("not above");
    expect(() => nextVersion("0.2.9", "0.1.12")).toThrow("not above");
    expect(() => nextVersion("0.2.9", "next")).toThrow("expected patch");
  });

  it("moves the Unreleased entries under the new version, and refuses an empty section", () => {
    const before = "# Changelog\n\n## Unreleased\n\n- a fix\n\n## 0.1.0\n\n- first\n";
    expect(releaseChangelog(before, "0.1.1", "2026-11-28")).toBe(
      "# Changelog\n\n## Unreleased\n\n## 0.1.1 (2026-11-28)\n\n- a fix\n\n## 0.1.0\n\n- first\n",
    );
    expect(() => releaseChangelog("# Changelog\n\n## Unreleased\n\n## 0.1.0\n", "0.1.1", "d")).toThrow("empty");
  });

  it("prints the plan and changes nothing without --apply", async () => {
    const files = ["client/package.json", "client/src/version.ts", "client/CHANGELOG.md"];
    const before = files.map((f) => readFileSync(f, "utf8"));
    const { stdout } = await promisify(execFile)("node_modules/.bin/tsx", ["client/scripts/release.ts", "minor"]);
    const { version } = JSON.parse(before[0]!);
    const [major, minor] = version.split(".");
    expect(stdout).toContain(`${version} -> ${major}.${Number(minor) + 1}.0 (dry run: nothing changes)`);
    expect(stdout).toContain(`git tag client-v${major}.${Number(minor) + 1}.0`);
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
  });
});
