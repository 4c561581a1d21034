import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * A git ref checked out beside this tree for `bench:render --compare` (scripts/lib/bench-compare.ts). Its
 * node_modules is a real directory whose entries link to this tree's, so nothing is downloaded, except the
 * workspace packages (`@avatar-video/*`, relative links such as ../../packages/contract), which are linked
 * the same way inside the worktree: the ref runs its own packages, not this tree's.
 */
export interface Worktree {
  dir: string;
  sha: string;
  remove(): void;
}

const root = resolve(import.meta.dirname, "../..");
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

export function prepareWorktree(ref: string): Worktree {
  const sha = git("rev-parse", "--verify", `${ref}^{commit}`);
  const dir = join(root, ".local", "bench-compare", sha.slice(0, 12));
  const remove = () => {
    if (existsSync(dir)) git("worktree", "remove", "--force", dir);
    git("worktree", "prune");
  };
  remove();
  mkdirSync(join(root, ".local", "bench-compare"), { recursive: true });
  git("worktree", "add", "--detach", dir, sha);
  linkModules(join(root, "node_modules"), join(dir, "node_modules"));
  // The renderer workspace's own modules (e.g. its sharp build), when the ref has none of its own.
  const containerModules = join(root, "container", "node_modules");
  if (existsSync(containerModules) && !existsSync(join(dir, "container", "node_modules")))
    symlinkSync(containerModules, join(dir, "container", "node_modules"));
  return { dir, sha, remove };
}

function linkModules(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === "@avatar-video") {
      mkdirSync(join(to, name), { recursive: true });
      // Workspace links are relative (../../packages/x): the same link inside the worktree points at its own copy.
      for (const pkg of readdirSync(join(from, name))) {
        const entry = join(from, name, pkg);
        if (lstatSync(entry).isSymbolicLink()) symlinkSync(readlinkSync(entry), join(to, name, pkg));
      }
      continue;
    }
    symlinkSync(join(from, name), join(to, name));
  }
}
