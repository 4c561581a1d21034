/**
 * Docs are reference, history is git (CONTRIBUTING.md): every doc under docs/ (docs/history/ apart), README.md
 * and CONTRIBUTING.md stays within MAX_DOC_LINES, names no commit and names only repository paths that exist
 * (files move; a doc pointing at the old place misleads). Prints one line per problem, naming the file and
 * line, and exits 1 if there is any. `tsx scripts/check-docs.ts [root]`; run by `npm test`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_DOC_LINES = 400;

/**
 * A lower-case hex word of 7–40 digits with at least one digit and one letter, as git abbreviates a commit.
 * Not after `#` (a colour), nor next to `-` (a UUID's parts) or another word character (longer hex: SHA-256).
 */
const COMMIT_LIKE = /(?<![\w#-])[0-9a-f]{7,40}(?![\w-])/g;

/** The repository's top folders: a path under one of them, in a doc's code, names a file or folder here. */
const REPO_FOLDERS = ["workers", "container", "packages", "scripts", "test", "client", "clients", "docs", "migrations"];

/** A path under REPO_FOLDERS, as a whole word (not the tail of a URL or of another path). */
const REPO_PATH = new RegExp(`(?<![\\w./@-])(?:${REPO_FOLDERS.join("|")})/[^\\s\`'"(),;|]*`, "g");

/**
 * Placeholders (`workers/<wing>/public.ts`, `{a,b}`, `…`), patterns beyond the last part and build output
 * (`dist/`, there only once built) are not checked.
 */
const NOT_A_PATH = /[<>{}[\]$…]|\*.*\/|\*\*|(^|\/)dist(\/|$)/;

/**
 * Whether `path` (relative to root) names something in the repository: a file, a folder with something in it
 * (a move leaves empty folders behind), a module named without its extension (`container/src/io/public`), or,
 * with `*` in its last part, at least one file matching it.
 */
export function repoPathExists(root: string): (path: string) => boolean {
  return (path) => {
    const full = join(root, path);
    if (path.includes("*")) {
      const name = new RegExp(
        `^${basename(path)
          .replace(/[.+?^()|]/g, "\\$&")
          .replace(/\*/g, ".*")}$`,
      );
      return isFolderWithFiles(dirname(full)) && readdirSync(dirname(full)).some((file) => name.test(file));
    }
    if (existsSync(full)) return !statSync(full).isDirectory() || isFolderWithFiles(full);
    return !path.endsWith("/") && [".ts", ".tsx"].some((extension) => existsSync(full + extension));
  };
}

function isFolderWithFiles(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && readdirSync(path).length > 0;
}

/** The code of one doc line: its inline code spans, or the whole line inside a fenced block. */
function codeOf(line: string, fenced: boolean): string[] {
  return fenced ? [line] : [...line.matchAll(/`([^`]+)`/g)].map((span) => span[1]);
}

/**
 * The problems of one doc, each "path:line: what", in line order. `exists` says whether a repository path
 * (relative to the root) names something: repoPathExists(root).
 */
export function docProblems(path: string, text: string, exists: (path: string) => boolean): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const problems: string[] = [];
  if (lines.length > MAX_DOC_LINES) {
    problems.push(`${path}:${MAX_DOC_LINES + 1}: ${lines.length} lines, over the ${MAX_DOC_LINES}-line limit`);
  }
  let fenced = false;
  lines.forEach((line, i) => {
    for (const [word] of line.matchAll(COMMIT_LIKE)) {
      if (/\d/.test(word) && /[a-f]/.test(word)) {
        problems.push(`${path}:${i + 1}: "${word}" looks like a commit hash (history goes to docs/history/ or git)`);
      }
    }
    if (line.trimStart().startsWith("```")) {
      fenced = !fenced;
      return;
    }
    for (const code of codeOf(line, fenced)) {
      for (const [word] of code.matchAll(REPO_PATH)) {
        // A sentence's full stop or colon, a `:line` or `#anchor` after a file: not part of the path.
        const named = word.replace(/[.:]+$/, "").replace(/[:#].*$/, "");
        if (!NOT_A_PATH.test(named) && !exists(named)) {
          problems.push(`${path}:${i + 1}: \`${named}\` names no file or folder in the repository (moved?)`);
        }
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
  const exists = repoPathExists(root);
  const problems = referenceDocs(root).flatMap((file) =>
    docProblems(relative(root, join(root, file)), readFileSync(join(root, file), "utf8"), exists),
  );
  for (const problem of problems) console.error(problem);
  process.exit(problems.length > 0 ? 1 : 0);
}
