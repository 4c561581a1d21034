import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { docProblems, MAX_DOC_LINES, repoPathExists } from "../../scripts/check-docs";

/** No doc in these cases names a repository path, so none is looked up. */
const noPathsNamed = (path: string): boolean => {
  throw new Error(`looked up ${path}`);
};

describe("check-docs: reference docs name no commit and stay short", () => {
  it("names the file and line of a commit hash, short or full", () => {
    const text = "# Title\n\nMeasured against fe3b411 and\n9fceb02d0ae598e95dc970b74767f19372d61af8.\n";
    expect(docProblems("docs/a.md", text, noPathsNamed)).toEqual([
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
    expect(docProblems("README.md", text, noPathsNamed)).toEqual([]);
  });

  it("fails a doc over the line limit, at the first line past it", () => {
    expect(docProblems("docs/b.md", "line\n".repeat(MAX_DOC_LINES), noPathsNamed)).toEqual([]);
    expect(docProblems("docs/b.md", "line\n".repeat(MAX_DOC_LINES + 1), noPathsNamed)).toEqual([
      `docs/b.md:${MAX_DOC_LINES + 1}: ${MAX_DOC_LINES + 1} lines, over the ${MAX_DOC_LINES}-line limit`,
    ]);
  });
});

describe("check-docs: reference docs name only repository paths that exist", () => {
  // A repository in miniature: one file in a layer, a folder a move left empty, a live page in two files.
  const root = mkdtempSync(join(tmpdir(), "check-docs-"));
  mkdirSync(join(root, "container/src/paint"), { recursive: true });
  mkdirSync(join(root, "container/src/animate"), { recursive: true });
  mkdirSync(join(root, "workers/motion"), { recursive: true });
  writeFileSync(join(root, "container/src/paint/lid-paint.ts"), "");
  writeFileSync(join(root, "workers/motion/live-page.ts"), "");
  writeFileSync(join(root, "workers/motion/live-page-view.tsx"), "");
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const exists = repoPathExists(root);

  it("names the line and the path of a file or folder that moved away", () => {
    const text = [
      "Painted after the warp (`container/src/animate/lid-paint.ts`): the lid edge.",
      "Code: `container/src/animate/` (the lids), `container/src/face/`.",
      "```sh",
      "npx tsx scripts/bench-gone.ts --runs 3",
      "```",
    ].join("\n");
    expect(docProblems("docs/c.md", text, exists)).toEqual([
      "docs/c.md:1: `container/src/animate/lid-paint.ts` names no file or folder in the repository (moved?)",
      "docs/c.md:2: `container/src/animate/` names no file or folder in the repository (moved?)",
      "docs/c.md:2: `container/src/face/` names no file or folder in the repository (moved?)",
      "docs/c.md:4: `scripts/bench-gone.ts` names no file or folder in the repository (moved?)",
    ]);
  });

  it("passes files, folders, lines, modules without extension, patterns that match and placeholders", () => {
    const text = [
      "`container/src/paint/lid-paint.ts`, `container/src/paint/lid-paint.ts:12`, `container/src/paint/`.",
      '`import { paint } from "container/src/paint/lid-paint"`, `workers/motion/live-page*.tsx`',
      "`workers/<wing>/public.ts`, `packages/*/src/`, `docs/**/*.md`, `https://example.com/workers/x.ts`",
    ].join("\n");
    expect(docProblems("docs/d.md", text, exists)).toEqual([]);
  });

  it("fails a pattern that matches no file", () => {
    expect(docProblems("docs/e.md", "`workers/motion/live-room*.ts`", exists)).toEqual([
      "docs/e.md:1: `workers/motion/live-room*.ts` names no file or folder in the repository (moved?)",
    ]);
  });
});
