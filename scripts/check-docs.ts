/**
 * Docs are reference, history is git (CONTRIBUTING.md): every doc under docs/ (docs/history/ apart), README.md
 * and CONTRIBUTING.md stays within MAX_DOC_LINES and names no commit. Prints one line per problem, naming the
 * file and line, and exits 1 if there is any. `tsx scripts/check-docs.ts [root]`; run by `npm test`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_DOC_LINES = 400;

/**
 * A lower-case hex word of 7–40 digits with at least one digit and one letter, as git abbreviates a commit.
 * Not after `#` (a colour), nor next to `-` (a UUID's parts) or another word character (longer hex: SHA-256).
 */
const COMMIT_LIKE = /(?<![\w#-])[0-9a-f]{7,40}(?![\w-])/g;

/** The problems of one doc, each "path:line: what", in line order. */
export function docProblems(path: string, text: string): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const problems: string[] = [];
  if (lines.length > MAX_DOC_LINES) {
    problems.push(`${path}:${MAX_DOC_LINES + 1}: ${lines.length} lines, over the ${MAX_DOC_LINES}-line limit`);
  }
  lines.forEach((line, i) => {
    for (const [word] of line.matchAll(COMMIT_LIKE)) {
      if (/\d/.test(word) && /[a-f]/.test(word)) {
        problems.push(`${path}:${i + 1}: "${word}" looks like a commit hash (history goes to docs/history/ or git)`);
      }
    }
  });
  return problems;
}

/** docs/**\/*.md outside docs/history/, README.md and CONTRIBUTING.md, relative to root. */
export function referenceDocs(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
    .map((file) => join("docs", file))
    .filter((file) => file.endsWith(".md") && !file.startsWith(join("docs", "history") + sep));
  return ["README.md", "CONTRIBUTING.md", ...docs.sort()];
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && resolve(process.argv[1]) === self) {
  const root = resolve(process.argv[2] ?? join(dirname(self), ".."));
  const problems = referenceDocs(root).flatMap((file) =>
    docProblems(relative(root, join(root, file)), readFileSync(join(root, file), "utf8")),
  );
  for (const problem of problems) console.error(problem);
  process.exit(problems.length > 0 ? 1 : 0);
}
