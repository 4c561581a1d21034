/**
 * Vendors Scalar's API reference (`dist/browser/standalone.js` of @scalar/api-reference, one self-contained
 * script) into static/reference/scalar.js, which /v1/open/docs loads from our own origin: no CDN. The file is
 * committed rather than installed: the package brings ~310 MB of dependencies for this one 4.9 MB file, and a
 * committed asset needs no build step for `npm start`, the tests or `wrangler deploy`.
 *
 * Upgrade: set the version in workers/api/openapi/scalar-release.ts, run `npm run openapi:vendor-scalar`
 * (it fetches the package with `npm pack` and records the new SHA-256), open /v1/open/docs, commit both.
 * `--check` verifies the committed file against the recorded SHA-256, offline.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SCALAR_RELEASE } from "../workers/api/openapi/scalar-release";

const root = fileURLToPath(new URL("..", import.meta.url));
const OUT = `${root}static/reference/scalar.js`;
const RELEASE_MODULE = `${root}workers/api/openapi/scalar-release.ts`;

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** The standalone build of `version`, from the npm registry, with a line naming its origin and licence. */
function fetchStandalone(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), "scalar-"));
  try {
    const spec = `@scalar/api-reference@${version}`;
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", spec, "--json", "--pack-destination", dir], { encoding: "utf8" }),
    ) as { filename: string }[];
    execFileSync("tar", ["xzf", join(dir, packed!.filename), "-C", dir, "package/dist/browser/standalone.js"]);
    const js = readFileSync(join(dir, "package/dist/browser/standalone.js"), "utf8");
    return `/*! ${spec} | MIT License | https://github.com/scalar/scalar | vendored by scripts/vendor-scalar.ts */\n${js}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  if (values.check) {
    const ok = sha256(readFileSync(OUT)) === SCALAR_RELEASE.sha256;
    console.log(ok ? `scalar.js is ${SCALAR_RELEASE.version}` : "scalar.js differs from the recorded SHA-256");
    process.exit(ok ? 0 : 1);
  }
  const js = fetchStandalone(SCALAR_RELEASE.version);
  writeFileSync(OUT, js);
  const module = readFileSync(RELEASE_MODULE, "utf8").replace(/sha256: "[0-9a-f]*"/, `sha256: "${sha256(js)}"`);
  writeFileSync(RELEASE_MODULE, module);
  console.log(`wrote static/reference/scalar.js (${SCALAR_RELEASE.version}, ${Math.round(js.length / 1024)} KiB)`);
}
