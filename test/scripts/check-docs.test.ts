import { describe, expect, it } from "vitest";
import { docProblems, MAX_DOC_LINES } from "../../scripts/check-docs";

describe("check-docs: reference docs name no commit and stay short", () => {
  it("names the file and line of a commit hash, short or full", () => {
    const text = "# Title\n\nMeasured against fe3b411 and\n9fceb02d0ae598e95dc970b74767f19372d61af8.\n";
    expect(docProblems("docs/a.md", text)).toEqual([
      'docs/a.md:3: "fe3b411" looks like a commit hash (history goes to docs/history/ or git)',
      'docs/a.md:4: "9fceb02d0ae598e95dc970b74767f19372d61af8" looks like a commit hash (history goes to docs/history/ or git)',
    ]);
  });

  it("passes colours, UUIDs, SHA-256 digests, numbers, words and upper-case names", () => {
    const text = [
      "`backgroundColor: #f0f0f0`, `#a1b2c3d`",
      "avatarId 3f2b8c1e-4d5a-4e6f-8a7b-9c0d1e2f3a4b",
      "SHA-256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "2073600 pixels, 1800000 ms, 0x7FFFF000, Ed25519, deadbeef, facade",
    ].join("\n");
    expect(docProblems("README.md", text)).toEqual([]);
  });

  it("fails a doc over the line limit, at the first line past it", () => {
    expect(docProblems("docs/b.md", "line\n".repeat(MAX_DOC_LINES))).toEqual([]);
    expect(docProblems("docs/b.md", "line\n".repeat(MAX_DOC_LINES + 1))).toEqual([
      `docs/b.md:${MAX_DOC_LINES + 1}: ${MAX_DOC_LINES + 1} lines, over the ${MAX_DOC_LINES}-line limit`,
    ]);
  });
});
