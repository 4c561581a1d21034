// Is node_modules what package-lock.json describes, and does the lockfile match the package.json files?
// Exit 0 when both hold; otherwise exit 1 and print the first reason. Used by scripts/ensure-deps.sh before
// anything is installed, so plain JavaScript on any Node ≥ 18 (the machine's own), no dependencies.
//
// npm ci and npm install both record the tree they installed in node_modules/.package-lock.json (npm's
// "hidden lockfile"). The tree is installed when every package recorded there is the lockfile's (same version,
// integrity, source) and every package of the lockfile is there, except optional ones this platform skips.
import { existsSync, readFileSync } from "node:fs";

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const DEP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

function whyNotInstalled() {
  if (!existsSync("node_modules/.package-lock.json")) return "node_modules is not installed";
  const locked = readJson("package-lock.json").packages;
  const installed = readJson("node_modules/.package-lock.json").packages;
  for (const [path, entry] of Object.entries(installed)) {
    const want = locked[path];
    if (!want) return `${path} is installed but not in package-lock.json`;
    for (const field of ["version", "integrity", "resolved", "link"]) {
      if (want[field] !== entry[field]) return `${path}: ${field} differs from package-lock.json`;
    }
  }
  for (const [path, entry] of Object.entries(locked)) {
    if (path === "" || entry.optional || entry.devOptional || installed[path]) continue;
    if (!path.includes("node_modules/")) continue; // a workspace folder: its link is checked as node_modules/<name>
    return `${path} is missing`;
  }
  // The root and each workspace: the lockfile records the ranges package.json asked for when it was written.
  for (const folder of ["", ...workspaceFolders(locked)]) {
    const manifest = readJson(folder ? `${folder}/package.json` : "package.json");
    for (const field of DEP_FIELDS) {
      if (!sameRanges(manifest[field], locked[folder]?.[field])) return `${folder || "package.json"}: ${field} changed`;
    }
  }
  return null;
}

/** The lockfile's workspace folders: the targets of its links. */
const workspaceFolders = (locked) =>
  Object.values(locked)
    .filter((entry) => entry.link && existsSync(`${entry.resolved}/package.json`))
    .map((entry) => entry.resolved);

function sameRanges(a = {}, b = {}) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

const reason = whyNotInstalled();
if (reason) {
  console.log(reason);
  process.exit(1);
}
