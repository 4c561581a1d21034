// `npm run release -w client -- [patch|minor|major|<x.y.z>] [--apply]`: the next version of the SDK.
// Without --apply (the default) it prints the plan and changes nothing. With --apply: bumps the version
// (package.json, src/version.ts, the lockfile's workspace entry), moves CHANGELOG.md's "Unreleased" entries
// under the new version, builds and packs the tarball into client/, commits those files and tags
// client-v<version>. Publishing stays a deliberate step of its own: `npm publish <tarball>`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The version after `current`: a patch, minor or major bump, or an explicit higher x.y.z. */
export function nextVersion(current: string, bump: string): string {
  const [, ...parts] = SEMVER.exec(current) ?? fail(`package.json's version ${current} is not x.y.z`);
  const [major, minor, patch] = parts.map(Number) as [number, number, number];
  if (bump === "patch") return `${major}.${minor}.${patch + 1}`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  if (bump === "major") return `${major + 1}.0.0`;
  const [, ...wanted] = SEMVER.exec(bump) ?? fail(`expected patch, minor, major or x.y.z, got ${bump}`);
  const order = wanted.map(Number).map((n, i) => n - [major, minor, patch][i]!);
  if ((order.find((d) => d !== 0) ?? 0) <= 0) fail(`${bump} is not above the current ${current}`);
  return bump;
}

/** The changelog with its "Unreleased" entries moved under `## version (date)`; fails when there are none. */
export function releaseChangelog(text: string, version: string, date: string): string {
  const match = /^## Unreleased\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
  if (!match) fail('CHANGELOG.md has no "## Unreleased" section');
  const entries = match[1]!.trim();
  if (!entries) fail('CHANGELOG.md\'s "Unreleased" section is empty: say what changed first');
  const released = `## Unreleased\n\n## ${version} (${date})\n\n${entries}\n\n`;
  return text.slice(0, match.index) + released + text.slice(match.index + match[0].length);
}

function fail(message: string): never {
  throw new Error(message);
}

const client = fileURLToPath(new URL("..", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trimEnd();
const read = (path: string) => readFileSync(`${root}${path}`, "utf8");

function release(bump: string, apply: boolean): void {
  const manifest = JSON.parse(read("client/package.json"));
  const version = nextVersion(manifest.version, bump);
  const tag = `client-v${version}`;
  const changelog = releaseChangelog(read("client/CHANGELOG.md"), version, new Date().toISOString().slice(0, 10));
  const dirty = git("status", "--porcelain", "--", "client", "package-lock.json");
  const tagged = git("tag", "--list", tag) !== "";
  const files = ["client/package.json", "client/src/version.ts", "client/CHANGELOG.md", "package-lock.json"];
  const tarball = `client/avatar-video-client-${version}.tgz`;
  console.log(`@avatar-video/client ${manifest.version} -> ${version}${apply ? "" : " (dry run: nothing changes)"}`);
  console.log(`  writes   ${files.join(", ")}`);
  console.log(`  runs     npm pack -w client -> ${tarball}; git commit; git tag ${tag}`);
  if (dirty) console.log(`  blocked  uncommitted changes under client/ or in package-lock.json:\n${dirty}`);
  if (tagged) console.log(`  blocked  the tag ${tag} exists`);
  if (!apply) {
    console.log(`  then     npm run release -w client -- ${bump} --apply; npm publish ${tarball}`);
    return;
  }
  if (dirty || tagged) fail("not released: see the blocked lines above");

  manifest.version = version;
  writeFileSync(`${root}client/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const versionFile = read("client/src/version.ts").replace(/VERSION = "[^"]*"/, `VERSION = "${version}"`);
  writeFileSync(`${root}client/src/version.ts`, versionFile);
  const lock = JSON.parse(read("package-lock.json"));
  lock.packages.client.version = version;
  writeFileSync(`${root}package-lock.json`, `${JSON.stringify(lock, null, 2)}\n`);
  writeFileSync(`${root}client/CHANGELOG.md`, changelog);
  execFileSync("npm", ["pack", "-w", "client", "--pack-destination", client], { cwd: root, stdio: "inherit" });
  // Only these paths, whatever else is staged.
  git("commit", "-m", `client: release ${version}`, "-m", `Tarball: ${tarball} (npm publish it).`, "--", ...files);
  git("tag", "-a", tag, "-m", `@avatar-video/client ${version}`);
  console.log(`released ${tag}; publish with: npm publish ${tarball}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { apply: { type: "boolean" } }, allowPositionals: true });
  try {
    release(positionals[0] ?? "patch", values.apply === true);
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
